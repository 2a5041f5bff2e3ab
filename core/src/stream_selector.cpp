#include "act/core/stream_selector.hpp"

#include "act/core/errors.hpp"
#include "act/core/json_fields.hpp"

namespace act::core {

std::vector<std::string> StreamSelector::Patterns() const {
  std::vector<std::string> patterns;
  if (stream && !stream_exact) patterns.push_back(*stream);
  if (source && !source_exact) patterns.push_back(*source);
  return patterns;
}

std::uint32_t StreamSelector::Key() const {
  const bool flags[] = {streams.has_value(), stream.has_value(), stream_exact,      source.has_value(),
                        source_exact,        blocked.has_value(), lane.has_value(), source_matches.has_value()};
  std::uint32_t key = 0;
  for (bool flag : flags) key = (key << 1) | (flag ? 1u : 0u);
  return key;
}

StreamSelector ParseSelector(const nlohmann::json& input, SelectorUse use) {
  StreamSelector selector;
  if (input.is_array()) {
    if (use == SelectorUse::kQueryStreams) throw ValidationError("filter must be a JSON object");
    std::vector<std::string> streams;
    for (std::size_t i = 0; i < input.size(); ++i) {
      if (!input[i].is_string())
        throw ValidationError("selector[" + std::to_string(i) + "] must be a stream name, not " +
                              JsonTypeName(input[i]));
      streams.push_back(input[i].get<std::string>());
    }
    selector.streams = std::move(streams);
    return selector;
  }
  const std::string name = use == SelectorUse::kQueryStreams ? "filter" : "selector";
  if (!input.is_object())
    throw ValidationError(name + " must be a JSON array of stream names or a filter object, not " +
                          JsonTypeName(input));
  const JsonFields fields(input, name,
                          {"stream", "stream_exact", "source", "source_exact", "blocked", "lane", "source_matches"});
  selector.stream = fields.OptionalString("stream");
  selector.stream_exact = fields.OptionalBool("stream_exact").value_or(false);
  selector.source = fields.OptionalString("source");
  selector.source_exact = fields.OptionalBool("source_exact").value_or(false);
  selector.blocked = fields.OptionalBool("blocked");
  selector.lane = fields.OptionalString("lane");
  if (use == SelectorUse::kQueryStreams) {
    selector.source_matches = fields.OptionalStrings("source_matches");
    // An empty list is no hint at all (docs/reference.md, act.query_streams).
    if (selector.source_matches && selector.source_matches->empty()) selector.source_matches.reset();
  } else if (fields.Find("source_matches")) {
    throw ValidationError(name + ".source_matches is only for act.query_streams");
  }
  return selector;
}

std::string SelectorPredicate(const StreamSelector& selector) {
  std::string sql = "true";
  auto add = [&sql](const std::string& condition) { sql += " AND " + condition; };
  if (selector.streams) add("s.stream = ANY ($1)");
  // Patterns match in the C collation, as at commit (subscription_input.hpp).
  if (selector.stream) add(selector.stream_exact ? "s.stream = $2" : "s.stream COLLATE \"C\" ~ $2");
  if (selector.source)
    add(selector.source_exact ? "s.source = $3" : "(s.source IS NOT NULL AND s.source COLLATE \"C\" ~ $3)");
  if (selector.blocked) add("s.blocked = $4");
  if (selector.lane) add("s.lane = $5");
  // The readers by index, not a regex test of every row (sql/api/_source_readers.sql).
  // An array, not a join: the rows are fetched by key, never by a scan.
  if (selector.source_matches) add("s.stream = ANY (ARRAY(SELECT act._source_readers($6)))");
  return sql;
}

std::string SelectorStatementSql(SelectorStatement statement, const StreamSelector& selector) {
  const std::string where = " WHERE " + SelectorPredicate(selector);
  // Clearing a row's lease and error returns it to the claimable state.
  const std::string released = "leased_by = NULL, leased_until = NULL, deferred_at = NULL";
  switch (statement) {
    case SelectorStatement::kDefer:
      return "UPDATE act.subscription_rows s SET deferred_at = $7, retry = -1" + where;
    case SelectorStatement::kUndefer:
      return "UPDATE act.subscription_rows s SET deferred_at = NULL" + where + " AND s.deferred_at IS NOT NULL";
    case SelectorStatement::kReset:
      return "UPDATE act.subscription_rows s SET at = -1, retry = -1, blocked = false, error = NULL, " + released + where;
    case SelectorStatement::kUnblock:
      return "UPDATE act.subscription_rows s SET retry = -1, blocked = false, error = NULL, " + released + where +
             " AND s.blocked";
    case SelectorStatement::kRelease:  // only the lease: watermark, retry, blocked and deferral stay
      return "UPDATE act.subscription_rows s SET leased_by = NULL, leased_until = NULL" + where +
             " AND s.leased_by IS NOT NULL";
    case SelectorStatement::kPrioritize:
      return "UPDATE act.subscription_rows s SET priority = $7" + where + " AND s.priority <> $7";
    case SelectorStatement::kQueryStreams:
      return "SELECT s.* FROM act.subscriptions s" + where + " ORDER BY s.stream COLLATE \"C\" LIMIT $8";
    case SelectorStatement::kQueryStreamsAfter:  // keyset pagination on subscriptions_stream_c_ix
      return "SELECT s.* FROM act.subscriptions s" + where +
             " AND s.stream COLLATE \"C\" > $7 ORDER BY s.stream COLLATE \"C\" LIMIT $8";
  }
  return {};
}

}  // namespace act::core
