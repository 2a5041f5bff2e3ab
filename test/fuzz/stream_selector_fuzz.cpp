// ParseSelector: a selector is parsed or refused with ValidationError, and the
// SQL built from it depends only on its shape (which filters are present),
// never on the strings it carries: input text reaches the database only as
// parameters.
#include "act/core/errors.hpp"
#include "act/core/stream_selector.hpp"
#include "fuzz_support.hpp"

namespace {

using act::core::SelectorStatement;
using act::core::SelectorUse;
using act::core::StreamSelector;
using act::fuzz::Check;

// The same filters with every string emptied.
StreamSelector Shape(const StreamSelector& selector) {
  StreamSelector shape = selector;
  if (shape.streams) shape.streams = std::vector<std::string>{};
  if (shape.stream) shape.stream = std::string();
  if (shape.source) shape.source = std::string();
  if (shape.lane) shape.lane = std::string();
  if (shape.source_matches) shape.source_matches = std::vector<std::string>{};
  return shape;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const SelectorUse use = data[0] % 2 == 0 ? SelectorUse::kAdmin : SelectorUse::kQueryStreams;
  const std::optional<nlohmann::json> input = act::fuzz::ParseJson(data + 1, size - 1);
  if (!input) return 0;
  StreamSelector selector;
  try {
    selector = act::core::ParseSelector(*input, use);
  } catch (const act::core::ValidationError&) {
    return 0;
  }
  Check(input->is_array() || input->is_object(), "only arrays and objects are selectors");
  Check(selector.streams.has_value() == input->is_array(), "the array form gives a stream list");
  if (selector.streams) {
    Check(use == SelectorUse::kAdmin, "act.query_streams takes no stream list");
    Check(selector.streams->size() == input->size(), "every listed stream is kept");
  }
  if (use == SelectorUse::kAdmin) Check(!selector.source_matches, "source_matches is only for act.query_streams");
  if (selector.source_matches) Check(!selector.source_matches->empty(), "an empty source_matches is no filter");
  const std::vector<std::string> patterns = selector.Patterns();
  Check(patterns.size() == (selector.stream && !selector.stream_exact ? 1u : 0u) +
                               (selector.source && !selector.source_exact ? 1u : 0u),
        "every non-exact stream or source is a pattern to validate");

  const StreamSelector shape = Shape(selector);
  Check(shape.Key() == selector.Key(), "the key is the shape");
  const SelectorStatement statements[] = {SelectorStatement::kDefer,        SelectorStatement::kReset,
                                          SelectorStatement::kUnblock,      SelectorStatement::kPrioritize,
                                          SelectorStatement::kQueryStreams, SelectorStatement::kQueryStreamsAfter};
  for (const SelectorStatement statement : statements)
    Check(act::core::SelectorStatementSql(statement, selector) == act::core::SelectorStatementSql(statement, shape),
          "the SQL text depends only on the selector's shape");
  return 0;
}
