#pragma once
// Selectors of subscription rows (docs/reference.md, "Selectors"): a JSON array of stream
// names, or a filter object {stream, stream_exact, source, source_exact,
// blocked, lane} (+ source_matches for act.query_streams), compiled to SQL
// with fixed parameter positions so each shape is planned once.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace act::core {

enum SelectorParam : int {
  kSelectStreams = 1,        // text[]
  kSelectStream = 2,         // text
  kSelectSource = 3,         // text
  kSelectBlocked = 4,        // boolean
  kSelectLane = 5,           // text
  kSelectSourceMatches = 6,  // text[]
  kSelectorParamCount = 6    // callers number their own parameters after these
};

struct StreamSelector {
  std::optional<std::vector<std::string>> streams;  // the array form
  std::optional<std::string> stream;
  bool stream_exact = false;
  std::optional<std::string> source;
  bool source_exact = false;
  std::optional<bool> blocked;
  std::optional<std::string> lane;
  std::optional<std::vector<std::string>> source_matches;

  // Patterns the database must validate (invalid regex: 2201B).
  std::vector<std::string> Patterns() const;
  std::uint32_t Key() const;
};

enum class SelectorUse { kAdmin, kQueryStreams };
StreamSelector ParseSelector(const nlohmann::json& input, SelectorUse use);

// A boolean SQL expression over the subscription row alias `s`.
std::string SelectorPredicate(const StreamSelector& selector);

// The statements that take a selector. Their own parameters follow the
// selector's: $7 (until / priority / after) and $8 (max_streams).
enum class SelectorStatement {
  kDefer,
  kUndefer,
  kReset,
  kUnblock,
  kRelease,
  kPrioritize,
  kQueryStreams,
  kQueryStreamsAfter
};
std::string SelectorStatementSql(SelectorStatement statement, const StreamSelector& selector);

}  // namespace act::core
