#pragma once
// The log's Merkle tree, as RFC 9162 §2.1 defines it (the same tree as RFC
// 6962): leaf hash SHA-256(0x00 || entry), interior node SHA-256(0x01 ||
// left || right), a tree of n > 1 leaves split at the largest power of two
// below n, the empty tree's root SHA-256 of nothing.
//
// Proof generation asks a NodeSource for the hashes of perfect subtrees only
// (2^level consecutive leaves starting at a multiple of 2^level), which never
// change once complete and so can be stored: in memory (MemoryTree), or as
// C2SP tiles (act/core/tlog_tiles.hpp). A root at any size or a proof costs
// O(log n) such reads; the few hashes at the right edge of a tree that is not
// a power of two are folded from them.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "act/core/event_hash.hpp"

namespace act::core::merkle {

using Path = std::vector<Hash>;

// The perfect subtree of 2^level leaves starting at leaf index << level.
struct NodeId {
  unsigned level = 0;
  std::uint64_t index = 0;
  friend bool operator==(const NodeId&, const NodeId&) = default;
};

// The leaves [begin, end) of a tree whose hash a proof carries: a perfect
// subtree, or the right edge of a tree (end - begin not a power of two, begin
// a multiple of the largest power of two <= end - begin).
struct LeafRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  friend bool operator==(const LeafRange&, const LeafRange&) = default;
};

// ---- Hashing -----------------------------------------------------------

Hash EmptyRoot();                                   // SHA-256 of nothing
Hash LeafHash(std::span<const std::uint8_t> entry);  // SHA-256(0x00 || entry)
inline Hash LeafHash(const Hash& entry) { return LeafHash(std::span<const std::uint8_t>(entry)); }
Hash NodeHash(const Hash& left, const Hash& right);  // SHA-256(0x01 || left || right)
// The same over children of any length (only test vectors need it).
Hash NodeHash(std::span<const std::uint8_t> left, std::span<const std::uint8_t> right);

// The root of the tree whose leaves have these leaf hashes (MTH), computed
// from the leaves: O(n). For tests, audits and small trees.
Hash RootOf(std::span<const Hash> leaf_hashes);

// The largest power of two strictly below n (n >= 2): where a tree splits.
std::uint64_t SplitPoint(std::uint64_t n);

// ---- What a proof is made of ---------------------------------------------

// The perfect subtrees whose hashes, folded right to left, give the hash of
// the range: one per set bit of its length, largest (leftmost) first.
// Throws std::invalid_argument for an empty range or one of another shape.
std::vector<NodeId> RangeNodes(LeafRange range);

// The ranges whose hashes form the inclusion proof of leaf `index` in the tree
// of `size` leaves (RFC 9162 §2.1.3.1), bottom-up. Throws ValidationError
// unless index < size.
std::vector<LeafRange> InclusionRanges(std::uint64_t index, std::uint64_t size);

// The ranges whose hashes form the consistency proof from the tree of
// old_size leaves to the tree of new_size leaves (RFC 9162 §2.1.4.1); none
// when old_size is 0 or equals new_size. Throws ValidationError when
// old_size > new_size.
std::vector<LeafRange> ConsistencyRanges(std::uint64_t old_size, std::uint64_t new_size);

// The number of hashes in a well-formed proof (what verification expects).
std::size_t InclusionPathLength(std::uint64_t index, std::uint64_t size);           // index < size
std::size_t ConsistencyPathLength(std::uint64_t old_size, std::uint64_t new_size);  // old_size <= new_size

// ---- Proofs from stored nodes --------------------------------------------

// Hands out the hashes of perfect subtrees of one tree. Node throws when the
// subtree is not complete in the tree the source holds (beyond its size).
// Not const: a source backed by storage may cache what it read.
class NodeSource {
 public:
  virtual ~NodeSource() = default;
  virtual Hash Node(NodeId id) = 0;
};

// The hash of a range: popcount(end - begin) node reads.
Hash RangeHash(NodeSource& source, LeafRange range);
// The root of the first `size` leaves (the empty root for 0).
Hash RootAt(NodeSource& source, std::uint64_t size);
Path InclusionProof(NodeSource& source, std::uint64_t index, std::uint64_t size);
Path ConsistencyProof(NodeSource& source, std::uint64_t old_size, std::uint64_t new_size);

// ---- Verification (RFC 9162 §2.1.3.2 and §2.1.4.2) ------------------------

enum class ProofFault {
  kNone,
  kIndexNotInTree,   // inclusion: index >= size
  kSizesOutOfOrder,  // consistency: old_size > new_size
  kPathLength,       // not the number of hashes a proof of this shape has
  kRootMismatch,     // inclusion: the path leads to another root
  kOldRootMismatch,  // consistency: the path does not lead to the old root
  kNewRootMismatch,  // consistency: the path does not lead to the new root
};

struct ProofCheck {
  ProofFault fault = ProofFault::kNone;
  std::string problem;  // one sentence naming what failed; empty when ok
  bool ok() const { return fault == ProofFault::kNone; }
};

ProofCheck CheckInclusion(const Hash& leaf_hash, std::uint64_t index, std::uint64_t size, std::span<const Hash> path,
                          const Hash& root);
// old_size 0: holds with an empty path when old_root is the empty root.
// old_size == new_size: holds with an empty path when the roots are equal.
ProofCheck CheckConsistency(std::uint64_t old_size, const Hash& old_root, std::uint64_t new_size,
                            const Hash& new_root, std::span<const Hash> path);

inline bool VerifyInclusion(const Hash& leaf_hash, std::uint64_t index, std::uint64_t size, std::span<const Hash> path,
                            const Hash& root) {
  return CheckInclusion(leaf_hash, index, size, path, root).ok();
}
inline bool VerifyConsistency(std::uint64_t old_size, const Hash& old_root, std::uint64_t new_size,
                              const Hash& new_root, std::span<const Hash> path) {
  return CheckConsistency(old_size, old_root, new_size, new_root, path).ok();
}

// ---- Growing a tree ---------------------------------------------------------

// The compact range [0, size): the hash of each perfect subtree that the
// binary of size names, largest (leftmost) first. Enough to append leaves and
// to compute the current root in O(log n) without any other node.
class Frontier {
 public:
  // Told of every perfect subtree an append completes: the leaf (level 0)
  // first, then each parent it completes, upward. A sealer keeps the ones it
  // stores (for C2SP tiles: levels that are multiples of 8).
  using Completed = std::function<void(NodeId, const Hash&)>;

  Frontier() = default;
  // A frontier as stored: nodes.size() must be popcount(size) (ValidationError otherwise).
  Frontier(std::uint64_t size, std::vector<Hash> nodes);
  // Resumes the tree of `size` leaves that `source` holds: popcount(size) reads.
  static Frontier Load(NodeSource& source, std::uint64_t size);

  std::uint64_t size() const { return size_; }
  const std::vector<Hash>& nodes() const { return nodes_; }
  std::vector<NodeId> node_ids() const;  // which subtree each of nodes() is

  void Append(const Hash& leaf_hash, const Completed& completed = {});
  Hash Root() const;

 private:
  std::uint64_t size_ = 0;
  std::vector<Hash> nodes_;
};

// Every perfect subtree of a tree, kept in memory level by level (about 2n
// hashes): a NodeSource for tests and for small tools.
class MemoryTree : public NodeSource {
 public:
  MemoryTree() = default;
  explicit MemoryTree(std::span<const Hash> leaf_hashes);

  void Append(const Hash& leaf_hash);
  std::uint64_t size() const { return levels_.empty() ? 0 : levels_.front().size(); }
  Hash Node(NodeId id) override;  // std::out_of_range beyond the tree
  Hash Root() { return RootAt(*this, size()); }

 private:
  std::vector<std::vector<Hash>> levels_;  // levels_[l][i]: NodeId{l, i}
};

}  // namespace act::core::merkle
