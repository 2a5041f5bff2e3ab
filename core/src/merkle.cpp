#include "act/core/merkle.hpp"

#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

#include "act/core/errors.hpp"

namespace act::core::merkle {

namespace {

constexpr std::uint8_t kLeafPrefix = 0x00;
constexpr std::uint8_t kNodePrefix = 0x01;

// SHA-256(prefix || first || second) through the low-level calls, as in
// event_hash.cpp (which says why): a proof or a sealed tile hashes hundreds of
// 65-byte nodes, and EVP's per-call context reallocation cost more than the
// hashing.
Hash PrefixedSha256(std::uint8_t prefix, std::span<const std::uint8_t> first,
                    std::span<const std::uint8_t> second = {}) {
  Hash out{};
  // A leaf or a node fits one small buffer: one update instead of three
  // (each copies into the context's block buffer).
  constexpr std::size_t kSmall = 1 + 2 * sizeof(Hash);
  if (1 + first.size() + second.size() <= kSmall) {
    std::array<std::uint8_t, kSmall> message;
    message[0] = prefix;
    std::copy(first.begin(), first.end(), message.begin() + 1);
    std::copy(second.begin(), second.end(), message.begin() + 1 + first.size());
    SHA256_CTX ctx;  // not SHA256(): OpenSSL 3 routes the one-shot call through EVP
    if (SHA256_Init(&ctx) != 1 || SHA256_Update(&ctx, message.data(), 1 + first.size() + second.size()) != 1 ||
        SHA256_Final(out.data(), &ctx) != 1)
      throw std::runtime_error("OpenSSL SHA-256 failed");
    return out;
  }
  SHA256_CTX ctx;
  if (SHA256_Init(&ctx) != 1 || SHA256_Update(&ctx, &prefix, 1) != 1 ||
      SHA256_Update(&ctx, first.data(), first.size()) != 1 || SHA256_Update(&ctx, second.data(), second.size()) != 1 ||
      SHA256_Final(out.data(), &ctx) != 1)
    throw std::runtime_error("OpenSSL SHA-256 failed");
  return out;
}

// RFC 9162 §2.1.3.1 PATH, as ranges: the sibling of each subtree on the way
// from the root down to the leaf, collected top-down.
void CollectInclusion(std::uint64_t index, LeafRange range, std::vector<LeafRange>& top_down) {
  while (range.end - range.begin > 1) {
    const std::uint64_t middle = range.begin + SplitPoint(range.end - range.begin);
    if (index < middle) {
      top_down.push_back({middle, range.end});
      range.end = middle;
    } else {
      top_down.push_back({range.begin, middle});
      range.begin = middle;
    }
  }
}

// RFC 9162 §2.1.4.1 SUBPROOF(m, D[begin:end], whole), with m the old size in
// absolute leaves; ranges collected top-down.
void CollectConsistency(std::uint64_t old_size, LeafRange range, bool whole, std::vector<LeafRange>& top_down) {
  while (old_size != range.end) {
    const std::uint64_t middle = range.begin + SplitPoint(range.end - range.begin);
    if (old_size <= middle) {
      top_down.push_back({middle, range.end});
      range.end = middle;
    } else {
      top_down.push_back({range.begin, middle});
      range.begin = middle;
      whole = false;
    }
  }
  // The old tree's subtree itself, unless it is the whole old tree (which the
  // verifier already holds as the old root).
  if (!whole) top_down.push_back(range);
}

Path HashRanges(NodeSource& source, const std::vector<LeafRange>& ranges) {
  Path path;
  path.reserve(ranges.size());
  for (const LeafRange& range : ranges) path.push_back(RangeHash(source, range));
  return path;
}

std::string Count(std::size_t n) { return std::to_string(n) + (n == 1 ? " hash" : " hashes"); }

ProofCheck Fault(ProofFault fault, std::string problem) { return {fault, std::move(problem)}; }

// Shifts fn and sn right together until fn's lowest bit is set or fn is 0:
// climbing past the levels where the node is the right edge's only child.
void ClimbRightEdge(std::uint64_t& fn, std::uint64_t& sn) {
  while ((fn & 1) == 0 && fn != 0) {
    fn >>= 1;
    sn >>= 1;
  }
}

}  // namespace

// ---- Hashing -----------------------------------------------------------

Hash EmptyRoot() {
  static const Hash empty = [] {
    Hash out{};
    if (SHA256(nullptr, 0, out.data()) == nullptr) throw std::runtime_error("OpenSSL SHA-256 failed");
    return out;
  }();
  return empty;
}

Hash LeafHash(std::span<const std::uint8_t> entry) { return PrefixedSha256(kLeafPrefix, entry); }

Hash NodeHash(const Hash& left, const Hash& right) { return PrefixedSha256(kNodePrefix, left, right); }

Hash NodeHash(std::span<const std::uint8_t> left, std::span<const std::uint8_t> right) {
  return PrefixedSha256(kNodePrefix, left, right);
}

Hash RootOf(std::span<const Hash> leaf_hashes) {
  if (leaf_hashes.empty()) return EmptyRoot();
  Frontier frontier;
  for (const Hash& leaf : leaf_hashes) frontier.Append(leaf);
  return frontier.Root();
}

std::uint64_t SplitPoint(std::uint64_t n) {
  if (n < 2) throw std::invalid_argument("a tree of fewer than 2 leaves does not split");
  return std::bit_floor(n - 1);
}

// ---- What a proof is made of ---------------------------------------------

std::vector<NodeId> RangeNodes(LeafRange range) {
  if (range.end <= range.begin) throw std::invalid_argument("an empty leaf range has no nodes");
  const std::uint64_t length = range.end - range.begin;
  if (range.begin % std::bit_floor(length) != 0)
    throw std::invalid_argument("leaf range [" + std::to_string(range.begin) + ", " + std::to_string(range.end) +
                                ") is not a subtree of any tree");
  std::vector<NodeId> nodes;
  nodes.reserve(static_cast<std::size_t>(std::popcount(length)));
  std::uint64_t at = range.begin;
  for (int level = static_cast<int>(std::bit_width(length)) - 1; level >= 0; --level) {
    const std::uint64_t width = std::uint64_t{1} << level;
    if ((length & width) == 0) continue;
    nodes.push_back({static_cast<unsigned>(level), at >> level});
    at += width;
  }
  return nodes;
}

std::vector<LeafRange> InclusionRanges(std::uint64_t index, std::uint64_t size) {
  if (index >= size)
    throw ValidationError("leaf index " + std::to_string(index) + " is not in a tree of " + std::to_string(size) +
                          " entries");
  std::vector<LeafRange> ranges;
  CollectInclusion(index, {0, size}, ranges);
  std::reverse(ranges.begin(), ranges.end());
  return ranges;
}

std::vector<LeafRange> ConsistencyRanges(std::uint64_t old_size, std::uint64_t new_size) {
  if (old_size > new_size)
    throw ValidationError("old size " + std::to_string(old_size) + " is larger than new size " +
                          std::to_string(new_size));
  std::vector<LeafRange> ranges;
  if (old_size == 0 || old_size == new_size) return ranges;
  CollectConsistency(old_size, {0, new_size}, true, ranges);
  std::reverse(ranges.begin(), ranges.end());
  return ranges;
}

std::size_t InclusionPathLength(std::uint64_t index, std::uint64_t size) {
  if (index >= size) throw std::invalid_argument("leaf index beyond the tree");
  // Below the level where the paths to index and to the last leaf meet, every
  // level has a sibling; above it, only the levels where index has a left sibling.
  const int inner = static_cast<int>(std::bit_width(index ^ (size - 1)));
  const int border = inner >= 64 ? 0 : std::popcount(index >> inner);
  return static_cast<std::size_t>(inner + border);
}

std::size_t ConsistencyPathLength(std::uint64_t old_size, std::uint64_t new_size) {
  if (old_size > new_size) throw std::invalid_argument("old size beyond the new size");
  if (old_size == 0 || old_size == new_size) return 0;
  // The inclusion path of the old tree's last leaf, less the levels inside the
  // largest perfect subtree that ends at old_size (whose hash stands in for
  // them), plus that subtree's hash unless it is the whole old tree.
  const int shift = std::countr_zero(old_size);
  const std::size_t climb = InclusionPathLength(old_size - 1, new_size) - static_cast<std::size_t>(shift);
  return climb + (std::has_single_bit(old_size) ? 0 : 1);
}

// ---- Proofs from stored nodes --------------------------------------------

Hash RangeHash(NodeSource& source, LeafRange range) {
  const std::vector<NodeId> nodes = RangeNodes(range);
  Hash hash = source.Node(nodes.back());
  for (auto node = nodes.rbegin() + 1; node != nodes.rend(); ++node) hash = NodeHash(source.Node(*node), hash);
  return hash;
}

Hash RootAt(NodeSource& source, std::uint64_t size) {
  return size == 0 ? EmptyRoot() : RangeHash(source, {0, size});
}

Path InclusionProof(NodeSource& source, std::uint64_t index, std::uint64_t size) {
  return HashRanges(source, InclusionRanges(index, size));
}

Path ConsistencyProof(NodeSource& source, std::uint64_t old_size, std::uint64_t new_size) {
  return HashRanges(source, ConsistencyRanges(old_size, new_size));
}

// ---- Verification ------------------------------------------------------------

ProofCheck CheckInclusion(const Hash& leaf_hash, std::uint64_t index, std::uint64_t size, std::span<const Hash> path,
                          const Hash& root) {
  if (index >= size)
    return Fault(ProofFault::kIndexNotInTree, "leaf index " + std::to_string(index) + " is not in a tree of " +
                                                  std::to_string(size) + " entries");
  const std::size_t expected = InclusionPathLength(index, size);
  if (path.size() != expected)
    return Fault(ProofFault::kPathLength, "the path has " + Count(path.size()) + ", an inclusion proof of index " +
                                              std::to_string(index) + " in a tree of " + std::to_string(size) +
                                              " entries has " + std::to_string(expected));
  // fn walks the leaf's position up the tree, sn the last leaf's; a set low
  // bit of fn (or fn on the right edge) means the sibling is on the left.
  std::uint64_t fn = index;
  std::uint64_t sn = size - 1;
  Hash r = leaf_hash;
  for (const Hash& sibling : path) {
    if (sn == 0) return Fault(ProofFault::kPathLength, "the path is longer than the tree is high");
    if ((fn & 1) != 0 || fn == sn) {
      r = NodeHash(sibling, r);
      ClimbRightEdge(fn, sn);
    } else {
      r = NodeHash(r, sibling);
    }
    fn >>= 1;
    sn >>= 1;
  }
  if (sn != 0) return Fault(ProofFault::kPathLength, "the path ends below the root");
  if (r != root)
    return Fault(ProofFault::kRootMismatch,
                 "the path leads to root " + ToHex(r) + ", not to the given root " + ToHex(root));
  return {};
}

ProofCheck CheckConsistency(std::uint64_t old_size, const Hash& old_root, std::uint64_t new_size,
                            const Hash& new_root, std::span<const Hash> path) {
  if (old_size > new_size)
    return Fault(ProofFault::kSizesOutOfOrder, "old size " + std::to_string(old_size) +
                                                   " is larger than new size " + std::to_string(new_size));
  const std::size_t expected = ConsistencyPathLength(old_size, new_size);
  if (path.size() != expected)
    return Fault(ProofFault::kPathLength, "the path has " + Count(path.size()) + ", a consistency proof from " +
                                              std::to_string(old_size) + " to " + std::to_string(new_size) +
                                              " entries has " + std::to_string(expected));
  if (old_size == 0) {
    if (old_root != EmptyRoot())
      return Fault(ProofFault::kOldRootMismatch, "the old root " + ToHex(old_root) +
                                                     " is not the empty tree's root " + ToHex(EmptyRoot()));
    return {};
  }
  if (old_size == new_size) {
    if (old_root != new_root)
      return Fault(ProofFault::kNewRootMismatch, "two different roots for the same size " + std::to_string(new_size) +
                                                     ": " + ToHex(old_root) + " and " + ToHex(new_root));
    return {};
  }
  // When the old tree is a perfect subtree of the new one, its root is the
  // proof's first node (the proof leaves it out).
  std::size_t next = 0;
  Hash seed;
  if (std::has_single_bit(old_size)) {
    seed = old_root;
  } else {
    seed = path[0];
    next = 1;
  }
  std::uint64_t fn = old_size - 1;
  std::uint64_t sn = new_size - 1;
  while ((fn & 1) != 0) {  // up to the level of the seed node
    fn >>= 1;
    sn >>= 1;
  }
  Hash fr = seed;  // folds towards the old root
  Hash sr = seed;  // folds towards the new root
  for (; next < path.size(); ++next) {
    const Hash& c = path[next];
    if (sn == 0) return Fault(ProofFault::kPathLength, "the path is longer than the new tree is high");
    if ((fn & 1) != 0 || fn == sn) {
      fr = NodeHash(c, fr);
      sr = NodeHash(c, sr);
      ClimbRightEdge(fn, sn);
    } else {
      sr = NodeHash(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  if (sn != 0) return Fault(ProofFault::kPathLength, "the path ends below the new root");
  if (fr != old_root)
    return Fault(ProofFault::kOldRootMismatch,
                 "the path leads to old root " + ToHex(fr) + ", not to the given old root " + ToHex(old_root));
  if (sr != new_root)
    return Fault(ProofFault::kNewRootMismatch,
                 "the path leads to new root " + ToHex(sr) + ", not to the given new root " + ToHex(new_root));
  return {};
}

// ---- Growing a tree ---------------------------------------------------------

Frontier::Frontier(std::uint64_t size, std::vector<Hash> nodes) : size_(size), nodes_(std::move(nodes)) {
  if (nodes_.size() != static_cast<std::size_t>(std::popcount(size)))
    throw ValidationError("a frontier of " + std::to_string(size) + " entries has " +
                          std::to_string(std::popcount(size)) + " nodes, not " + std::to_string(nodes_.size()));
}

Frontier Frontier::Load(NodeSource& source, std::uint64_t size) {
  std::vector<Hash> nodes;
  if (size > 0)
    for (const NodeId& id : RangeNodes({0, size})) nodes.push_back(source.Node(id));
  return Frontier(size, std::move(nodes));
}

std::vector<NodeId> Frontier::node_ids() const {
  return size_ == 0 ? std::vector<NodeId>{} : RangeNodes({0, size_});
}

void Frontier::Append(const Hash& leaf_hash, const Completed& completed) {
  if (size_ == UINT64_MAX) throw std::length_error("the tree is full");
  NodeId id{0, size_};
  Hash hash = leaf_hash;
  if (completed) completed(id, hash);
  // Each trailing set bit of the old size is a subtree of the same height as
  // the one just completed, to its left: merge them, climbing one level each.
  for (std::uint64_t bits = size_; (bits & 1) != 0; bits >>= 1) {
    hash = NodeHash(nodes_.back(), hash);
    nodes_.pop_back();
    id = {id.level + 1, id.index >> 1};
    if (completed) completed(id, hash);
  }
  nodes_.push_back(hash);
  ++size_;
}

Hash Frontier::Root() const {
  if (nodes_.empty()) return EmptyRoot();
  Hash hash = nodes_.back();
  for (auto node = nodes_.rbegin() + 1; node != nodes_.rend(); ++node) hash = NodeHash(*node, hash);
  return hash;
}

MemoryTree::MemoryTree(std::span<const Hash> leaf_hashes) {
  for (const Hash& leaf : leaf_hashes) Append(leaf);
}

void MemoryTree::Append(const Hash& leaf_hash) {
  if (levels_.empty()) levels_.emplace_back();
  levels_[0].push_back(leaf_hash);
  // Every complete pair at one level makes a node at the next.
  for (std::size_t level = 0; levels_[level].size() % 2 == 0; ++level) {
    if (level + 1 == levels_.size()) levels_.emplace_back();
    const std::vector<Hash>& below = levels_[level];
    levels_[level + 1].push_back(NodeHash(below[below.size() - 2], below.back()));
  }
}

Hash MemoryTree::Node(NodeId id) {
  if (id.level >= levels_.size() || id.index >= levels_[id.level].size())
    throw std::out_of_range("subtree (level " + std::to_string(id.level) + ", index " + std::to_string(id.index) +
                            ") is not complete in a tree of " + std::to_string(size()) + " entries");
  return levels_[id.level][static_cast<std::size_t>(id.index)];
}

}  // namespace act::core::merkle
