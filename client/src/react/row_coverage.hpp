#pragma once
// Which dynamic targets' subscription rows select every event their fetch
// reads. A dynamic target's row keeps the names it was first made with
// (act.subscribe fixes them at the first insert, and pg_act never deletes a
// row), which may be fewer than this version of the app reads; so the first
// cycle that claims a dynamic target reads its row once, and from then on
// its claimed events are handed over as act.claim_events brings them,
// without a per-stream act.query, when the row selects every name.
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "act/store.hpp"
#include "react/registry.hpp"

namespace act::react {

class RowCoverage {
 public:
  // Reads the rows of those of `targets` not looked at yet, one query each.
  void learn(Store& store, const Registry& registry, const std::vector<std::string>& targets);
  // True when the target's row is known to select every name its fetch reads.
  bool covers(std::string_view target) const;
  bool known(std::string_view target) const;

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // Bounded: past this many targets the map starts over (and rows are read again).
  static constexpr std::size_t kRemembered = 100'000;

  mutable std::mutex mutex_;
  std::unordered_map<std::string, bool, Hash, std::equal_to<>> covers_;
};

}  // namespace act::react
