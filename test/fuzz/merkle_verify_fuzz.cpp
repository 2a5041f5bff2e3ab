// RFC 9162 proof checks: proofs made for a tree verify, a changed byte makes
// them fail, and arbitrary indexes, sizes and paths never crash or throw.
#include <fuzzer/FuzzedDataProvider.h>

#include <vector>

#include "act/core/merkle.hpp"
#include "fuzz_support.hpp"

namespace merkle = act::core::merkle;
using act::core::Hash;

namespace {

Hash ConsumeHash(FuzzedDataProvider& provider) {
  Hash hash{};
  provider.ConsumeData(hash.data(), hash.size());
  return hash;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using act::fuzz::Check;
  FuzzedDataProvider provider(data, size);
  // A tree of up to 300 entries, and proofs in it.
  const auto n = provider.ConsumeIntegralInRange<std::uint64_t>(1, 300);
  const auto seed = provider.ConsumeIntegral<std::uint8_t>();
  merkle::MemoryTree tree;
  for (std::uint64_t i = 0; i < n; ++i) {
    Hash entry{};
    entry[0] = seed;
    entry[1] = static_cast<std::uint8_t>(i);
    entry[2] = static_cast<std::uint8_t>(i >> 8);
    tree.Append(merkle::LeafHash(entry));
  }
  const auto index = provider.ConsumeIntegralInRange<std::uint64_t>(0, n - 1);
  const auto old_size = provider.ConsumeIntegralInRange<std::uint64_t>(0, n);
  const auto flip = provider.ConsumeIntegral<std::uint16_t>();
  const Hash root = tree.Root();
  const Hash leaf = tree.Node({0, index});
  merkle::Path path = merkle::InclusionProof(tree, index, n);
  Check(merkle::VerifyInclusion(leaf, index, n, path, root), "an inclusion proof verifies");
  if (!path.empty()) {
    Hash& changed = path[flip / 256 % path.size()];
    changed[flip % 32] = static_cast<std::uint8_t>(changed[flip % 32] ^ (1u << (flip / 32 % 8)));
    Check(!merkle::VerifyInclusion(leaf, index, n, path, root), "a changed inclusion proof fails");
  }
  const Hash old_root = merkle::RootAt(tree, old_size);
  path = merkle::ConsistencyProof(tree, old_size, n);
  Check(merkle::VerifyConsistency(old_size, old_root, n, root, path), "a consistency proof verifies");
  if (!path.empty()) {
    Hash& changed = path[flip / 256 % path.size()];
    changed[flip % 32] = static_cast<std::uint8_t>(changed[flip % 32] ^ (1u << (flip / 32 % 8)));
    Check(!merkle::VerifyConsistency(old_size, old_root, n, root, path), "a changed consistency proof fails");
  }

  // Anything else: a fault, never a crash or an exception.
  const auto any_index = provider.ConsumeIntegral<std::uint64_t>();
  const auto any_size = provider.ConsumeIntegral<std::uint64_t>();
  const Hash any_hash = ConsumeHash(provider);
  merkle::Path any_path;
  while (provider.remaining_bytes() > 0 && any_path.size() < 70) any_path.push_back(ConsumeHash(provider));
  (void)merkle::CheckInclusion(any_hash, any_index, any_size, any_path, root);
  (void)merkle::CheckConsistency(any_index, any_hash, any_size, root, any_path);
  return 0;
}
