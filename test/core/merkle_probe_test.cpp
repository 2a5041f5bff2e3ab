// Every proof of small trees against every kind of mutation an RFC 9162
// verifier must refuse (the classes transparency-dev's proof probes cover):
// the valid proof holds, each mutation is refused, and a mutation that
// changes the number of hashes is refused for its length, with a problem
// naming the length given and the length expected. A mutation that happens
// to state something true (another valid proof) is left out.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "act/core/merkle.hpp"

namespace act::core::merkle {
namespace {

constexpr std::uint64_t kMaxInclusionSize = 128;
constexpr std::uint64_t kMaxConsistencySize = 64;

Hash Garbage(std::uint64_t seed) {
  const std::string text = "garbage " + std::to_string(seed);
  return LeafHash(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

Hash FlipBit(Hash hash, std::size_t bit) {
  hash[bit / 8 % hash.size()] = static_cast<std::uint8_t>(hash[bit / 8 % hash.size()] ^ (1u << (bit % 8)));
  return hash;
}

std::string Hashes(std::size_t n) { return std::to_string(n) + (n == 1 ? " hash" : " hashes"); }

// One tree of kMax + 1 leaves, its roots at every size.
struct Tree {
  explicit Tree(std::uint64_t max) {
    for (std::uint64_t i = 0; i <= max; ++i) {
      leaves.push_back(Garbage(1000000 + i));
      memory.Append(leaves.back());
    }
    for (std::uint64_t n = 0; n <= max + 1; ++n) roots.push_back(RootAt(memory, n));
  }
  const Hash& Root(std::uint64_t n) const { return roots[static_cast<std::size_t>(n)]; }
  std::vector<Hash> leaves;
  MemoryTree memory;
  std::vector<Hash> roots;
};

// Paths with one hash more or less, in every place the probes put them.
struct Reshaped {
  std::string what;
  Path path;
};

std::vector<Reshaped> LengthMutations(const Path& path, const Hash& garbage, const Hash& root) {
  std::vector<Reshaped> out;
  auto with = [&](std::string what, Path changed) { out.push_back({std::move(what), std::move(changed)}); };
  Path p = path;
  p.insert(p.begin(), garbage);
  with("garbage before the path", p);
  p = path;
  p.push_back(garbage);
  with("garbage after the path", p);
  p = path;
  p.insert(p.begin(), root);
  with("the root before the path", p);
  p = path;
  p.push_back(root);
  with("the root after the path", p);
  p = path;
  p.insert(p.end(), {garbage, garbage});
  with("two hashes after the path", p);
  if (!path.empty()) {
    with("the last hash dropped", Path(path.begin(), path.end() - 1));
    with("the first hash dropped", Path(path.begin() + 1, path.end()));
    with("an empty path", Path{});
    p = path;
    p.insert(p.begin(), path.front());
    with("the first hash twice", p);
    p = path;
    p.insert(p.begin() + 1, garbage);
    with("garbage after the first hash", p);
  }
  return out;
}

void ExpectLengthRefused(const ProofCheck& check, std::size_t given, std::size_t expected, const std::string& what) {
  EXPECT_EQ(check.fault, ProofFault::kPathLength) << what << ": " << check.problem;
  EXPECT_NE(check.problem.find("the path has " + Hashes(given)), std::string::npos) << what << ": " << check.problem;
  EXPECT_TRUE(check.problem.ends_with(" has " + std::to_string(expected))) << what << ": " << check.problem;
}

class InclusionProbes {
 public:
  explicit InclusionProbes(Tree& tree) : tree_(tree) {}

  // True when (leaf, index, size, path, root) is a valid statement of the tree.
  bool True(const Hash& leaf, std::uint64_t index, std::uint64_t size, const Path& path, const Hash& root) {
    return index < size && size <= kMaxInclusionSize + 1 && leaf == tree_.leaves[index] && root == tree_.Root(size) &&
           path == InclusionProof(tree_.memory, index, size);
  }

  // Expects the statement refused unless it is true.
  void Refused(const std::string& what, const Hash& leaf, std::uint64_t index, std::uint64_t size, const Path& path,
               const Hash& root) {
    if (True(leaf, index, size, path, root)) return;
    ++refusals;
    const ProofCheck check = CheckInclusion(leaf, index, size, path, root);
    EXPECT_FALSE(check.ok()) << what;
    EXPECT_FALSE(check.problem.empty()) << what;
  }

  void Probe(std::uint64_t i, std::uint64_t n) {
    const Hash& leaf = tree_.leaves[i];
    const Hash& root = tree_.Root(n);
    const Path path = InclusionProof(tree_.memory, i, n);
    ASSERT_EQ(path.size(), InclusionPathLength(i, n));
    const ProofCheck valid = CheckInclusion(leaf, i, n, path, root);
    ASSERT_TRUE(valid.ok()) << valid.problem;

    for (const Reshaped& m : LengthMutations(path, Garbage(i * 131 + n), root)) {
      ExpectLengthRefused(CheckInclusion(leaf, i, n, m.path, root), m.path.size(), path.size(), m.what);
      ++refusals;
    }
    for (std::size_t k = 0; k < path.size(); ++k) {
      for (std::size_t bit : {std::size_t{0}, std::size_t{3}, std::size_t{255}}) {
        Path bad = path;
        bad[k] = FlipBit(bad[k], bit);
        Refused("bit " + std::to_string(bit) + " of hash " + std::to_string(k) + " flipped", leaf, i, n, bad, root);
      }
    }
    Refused("another root", leaf, i, n, path, FlipBit(root, 7));
    Refused("the empty root", leaf, i, n, path, EmptyRoot());
    Refused("the leaf as root", leaf, i, n, path, leaf);
    Refused("another leaf", Garbage(7), i, n, path, root);
    Refused("leaf and root swapped", root, i, n, path, leaf);
    // This proof offered for another index, and that index's proof for this
    // one: every other index in small trees, the neighbours in larger ones.
    for (std::uint64_t j = 0; j < n; ++j) {
      if (j == i || (n > 32 && j + 1 != i && j != i + 1)) continue;
      Refused("index " + std::to_string(j), leaf, j, n, path, root);
      Refused("leaf " + std::to_string(j) + " with its index", tree_.leaves[j], j, n, path, root);
      Refused("the proof of index " + std::to_string(j), leaf, i, n, InclusionProof(tree_.memory, j, n), root);
    }
    Refused("index ^ 2", leaf, i ^ 2, n, path, root);
    Refused("index = size", leaf, n, n, path, root);
    // Another size with its own root; a doubled or halved size (another
    // height) with this root too. A size one off with this root is no
    // mutation: where the path has the same shape at both sizes it holds at
    // both, and the signed checkpoint is what binds a size to its root.
    for (std::uint64_t m : {n - 1, n + 1, n * 2, n / 2}) {
      if (m == n * 2 || m == n / 2) Refused("size " + std::to_string(m), leaf, i, m, path, root);
      if (m <= kMaxInclusionSize + 1) {
        Refused("size " + std::to_string(m) + " and its root", leaf, i, m, path, tree_.Root(m));
      }
    }
  }

  std::size_t refusals = 0;

 private:
  Tree& tree_;
};

class ConsistencyProbes {
 public:
  explicit ConsistencyProbes(Tree& tree) : tree_(tree) {}

  bool True(std::uint64_t m, const Hash& old_root, std::uint64_t n, const Hash& new_root, const Path& path) {
    if (m > n || m > kMaxConsistencySize + 1 || old_root != tree_.Root(m)) return false;
    // Every tree extends the empty one: an empty proof from 0 holds for any new root.
    if (m == 0) return path.empty();
    return n <= kMaxConsistencySize + 1 && new_root == tree_.Root(n) && path == ConsistencyProof(tree_.memory, m, n);
  }

  void Refused(const std::string& what, std::uint64_t m, const Hash& old_root, std::uint64_t n, const Hash& new_root,
               const Path& path) {
    if (True(m, old_root, n, new_root, path)) return;
    ++refusals;
    const ProofCheck check = CheckConsistency(m, old_root, n, new_root, path);
    EXPECT_FALSE(check.ok()) << what;
    EXPECT_FALSE(check.problem.empty()) << what;
  }

  void Probe(std::uint64_t m, std::uint64_t n) {
    const Hash& old_root = tree_.Root(m);
    const Hash& new_root = tree_.Root(n);
    const Path path = ConsistencyProof(tree_.memory, m, n);
    ASSERT_EQ(path.size(), ConsistencyPathLength(m, n));
    const ProofCheck valid = CheckConsistency(m, old_root, n, new_root, path);
    ASSERT_TRUE(valid.ok()) << valid.problem;

    for (const Reshaped& r : LengthMutations(path, Garbage(m * 131 + n), new_root)) {
      ExpectLengthRefused(CheckConsistency(m, old_root, n, new_root, r.path), r.path.size(), path.size(), r.what);
      ++refusals;
    }
    Path before_old = path;
    before_old.insert(before_old.begin(), old_root);
    ExpectLengthRefused(CheckConsistency(m, old_root, n, new_root, before_old), before_old.size(), path.size(),
                        "the old root before the path");
    ++refusals;
    for (std::size_t k = 0; k < path.size(); ++k) {
      for (std::size_t bit : {std::size_t{0}, std::size_t{4}, std::size_t{255}}) {
        Path bad = path;
        bad[k] = FlipBit(bad[k], bit);
        Refused("bit " + std::to_string(bit) + " of hash " + std::to_string(k) + " flipped", m, old_root, n, new_root,
                bad);
      }
    }
    Refused("another old root", m, FlipBit(old_root, 9), n, new_root, path);
    Refused("another new root", m, old_root, n, FlipBit(new_root, 9), path);
    Refused("the empty root as old root", m, EmptyRoot(), n, new_root, path);
    Refused("roots swapped", m, new_root, n, old_root, path);
    Refused("sizes swapped", n, new_root, m, old_root, path);
    Refused("sizes swapped, roots kept", n, old_root, m, new_root, path);
    for (std::uint64_t other : {m - 1, m + 1, m ^ 2}) {  // another old size, with this root and its own
      if (other > kMaxConsistencySize + 1) continue;     // m - 1 from 0 wraps around
      Refused("old size " + std::to_string(other), other, old_root, n, new_root, path);
      Refused("old size " + std::to_string(other) + " and its root", other, tree_.Root(other), n, new_root, path);
    }
    for (std::uint64_t other : {n - 1, n + 1, n * 2, n / 2}) {  // as for inclusion
      if (other == n * 2 || other == n / 2)
        Refused("new size " + std::to_string(other), m, old_root, other, new_root, path);
      if (other <= kMaxConsistencySize + 1) {
        Refused("new size " + std::to_string(other) + " and its root", m, old_root, other, tree_.Root(other), path);
      }
    }
  }

  std::size_t refusals = 0;

 private:
  Tree& tree_;
};

TEST(MerkleProbes, EveryInclusionProofHoldsAndEveryMutationIsRefused) {
  Tree tree(kMaxInclusionSize);
  InclusionProbes probes(tree);
  for (std::uint64_t n = 1; n <= kMaxInclusionSize; ++n) {
    for (std::uint64_t i = 0; i < n; ++i) {
      SCOPED_TRACE("inclusion of " + std::to_string(i) + " in " + std::to_string(n));
      probes.Probe(i, n);
      if (HasFailure()) return;  // one probe's failures are enough to read
    }
  }
  EXPECT_GT(probes.refusals, kMaxInclusionSize * kMaxInclusionSize);
}

TEST(MerkleProbes, EveryConsistencyProofHoldsAndEveryMutationIsRefused) {
  Tree tree(kMaxConsistencySize);
  ConsistencyProbes probes(tree);
  for (std::uint64_t n = 0; n <= kMaxConsistencySize; ++n) {
    for (std::uint64_t m = 0; m <= n; ++m) {
      SCOPED_TRACE("consistency from " + std::to_string(m) + " to " + std::to_string(n));
      probes.Probe(m, n);
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(probes.refusals, kMaxConsistencySize * kMaxConsistencySize);
}

// The case the issue named: a one-entry tree's proof is empty, and a hash
// before or after it (the same path, one garbage hash) is refused for its length.
TEST(MerkleProbes, OneEntryTreeRefusesAnyHash) {
  const Hash leaf = Garbage(1);
  for (const Path& path : {Path{Garbage(2)}, Path{leaf}, Path{Garbage(2), Garbage(3)}}) {
    const ProofCheck check = CheckInclusion(leaf, 0, 1, path, leaf);
    ExpectLengthRefused(check, path.size(), 0, "a one-entry tree");
  }
  EXPECT_TRUE(VerifyInclusion(leaf, 0, 1, {}, leaf));
  ExpectLengthRefused(CheckConsistency(1, leaf, 1, leaf, Path{Garbage(2)}), 1, 0, "the same one-entry tree");
  ExpectLengthRefused(CheckConsistency(0, EmptyRoot(), 1, leaf, Path{leaf}), 1, 0, "from the empty tree");
}

}  // namespace
}  // namespace act::core::merkle
