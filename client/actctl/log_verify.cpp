// actctl log verify-inclusion / verify-consistency: RFC 9162 proof checks
// offline, against a root the caller trusts (from a checkpoint it verified).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>

#include "act/core/merkle.hpp"
#include "arguments.hpp"
#include "command.hpp"

namespace actctl {

namespace {

namespace merkle = act::core::merkle;

struct InclusionArgs {
  std::string leaf_hash, index, size, root, path;
};

struct ConsistencyArgs {
  std::string old_size, old_root, new_size, new_root, path;
};

int VerifyInclusion(const InclusionArgs& args) {
  const act::core::Hash leaf = ParseHash("--leaf-hash", args.leaf_hash);
  const std::uint64_t index = ParseCount("--index", args.index);
  const std::uint64_t size = ParseCount("--size", args.size);
  const act::core::Hash root = ParseHash("--root", args.root);
  const merkle::Path path = ParsePath("--path", args.path);
  if (index >= size) throw UsageError(fmt::format("--index {} is not below --size {}", index, size));
  const merkle::ProofCheck check = merkle::CheckInclusion(leaf, index, size, path, root);
  if (!check.ok()) {
    fmt::print(stderr, "inclusion proof does not hold: {}\n", check.problem);
    return kFailed;
  }
  fmt::print("inclusion proof holds: entry {} of the tree of {} entries with root {}\n", index, size,
             act::core::ToHex(root));
  return kOk;
}

int VerifyConsistency(const ConsistencyArgs& args) {
  const std::uint64_t old_size = ParseCount("--old-size", args.old_size);
  const act::core::Hash old_root = ParseHash("--old-root", args.old_root);
  const std::uint64_t new_size = ParseCount("--new-size", args.new_size);
  const act::core::Hash new_root = ParseHash("--new-root", args.new_root);
  const merkle::Path path = ParsePath("--path", args.path);
  if (old_size > new_size)
    throw UsageError(fmt::format("--old-size {} is larger than --new-size {}", old_size, new_size));
  const merkle::ProofCheck check = merkle::CheckConsistency(old_size, old_root, new_size, new_root, path);
  if (!check.ok()) {
    fmt::print(stderr, "consistency proof does not hold: {}\n", check.problem);
    return kFailed;
  }
  fmt::print("consistency proof holds: the tree of {} entries (root {}) is a prefix of the tree of {} entries "
             "(root {})\n",
             old_size, act::core::ToHex(old_root), new_size, act::core::ToHex(new_root));
  return kOk;
}

constexpr const char* kPathHelp = "the proof's hashes, bottom-up, in hex separated by commas; '' for none";

// Every option of these commands is required and taken as text (arguments.hpp
// checks it, so a bad value gets one line naming the option).
void Required(CLI::App& command, const char* name, std::string& value, const char* type, const char* help) {
  command.add_option(name, value, help)->type_name(type)->required();
}

}  // namespace

void AddLogVerify(CLI::App& log, Chosen& chosen) {
  auto inclusion = std::make_shared<InclusionArgs>();
  CLI::App* verify_inclusion = log.add_subcommand(
      "verify-inclusion",
      "Check an RFC 9162 inclusion proof: the entry with --leaf-hash is entry --index of the tree of --size entries "
      "whose root is --root. Exit 0 when it holds, 1 when it does not, 2 for unusable arguments");
  Required(*verify_inclusion, "--leaf-hash", inclusion->leaf_hash, "HEX",
           "the entry's leaf hash SHA-256(0x00 || entry)");
  Required(*verify_inclusion, "--index", inclusion->index, "N", "the entry's position, from 0");
  Required(*verify_inclusion, "--size", inclusion->size, "N", "the tree's size in entries");
  Required(*verify_inclusion, "--root", inclusion->root, "HEX", "the tree's root");
  Required(*verify_inclusion, "--path", inclusion->path, "HEX,...", kPathHelp);
  verify_inclusion->callback(
      [&chosen, inclusion] { chosen.run = [inclusion] { return VerifyInclusion(*inclusion); }; });

  auto consistency = std::make_shared<ConsistencyArgs>();
  CLI::App* verify_consistency = log.add_subcommand(
      "verify-consistency",
      "Check an RFC 9162 consistency proof: the tree of --old-size entries with --old-root is a prefix of the tree of "
      "--new-size entries with --new-root. Exit 0 when it holds, 1 when it does not, 2 for unusable arguments");
  Required(*verify_consistency, "--old-size", consistency->old_size, "N", "the older tree's size in entries");
  Required(*verify_consistency, "--old-root", consistency->old_root, "HEX", "the older tree's root");
  Required(*verify_consistency, "--new-size", consistency->new_size, "N", "the newer tree's size in entries");
  Required(*verify_consistency, "--new-root", consistency->new_root, "HEX", "the newer tree's root");
  Required(*verify_consistency, "--path", consistency->path, "HEX,...", kPathHelp);
  verify_consistency->callback(
      [&chosen, consistency] { chosen.run = [consistency] { return VerifyConsistency(*consistency); }; });
}

}  // namespace actctl
