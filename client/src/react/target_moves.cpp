#include "react/target_moves.hpp"

#include <stdexcept>

#include "act/store.hpp"
#include "observe/observers.hpp"
#include "random_uuid.hpp"

namespace act::react {
namespace {

std::string source_label(const std::optional<std::string>& source) { return source.value_or("(all)"); }

// The target was renamed: its row under the former name, if any, is taken over.
// True when this process did the take-over.
bool take_over_former(AppPort& app, const SubscriptionSpec& spec, const std::string& former, bool target_exists) {
  const bool former_exists = !app.store().query_streams(StreamFilter::exactly(former)).empty();
  if (!former_exists && target_exists) return false;  // an earlier start of this version moved it
  if (former_exists && target_exists)
    throw std::logic_error("target " + spec.stream + " is renamed from " + former +
                           ", but both have a subscription row: it is unclear which watermark to go on from "
                           "(a process of the earlier version subscribed the former name again?)");
  if (!former_exists)
    throw std::logic_error("target " + spec.stream + " is renamed from " + former +
                           ", but neither has a subscription row: a misspelt former name would replay the "
                           "target's history. Correct it, or drop renamed_from where the target is new");
  const TakenOver moved = app.store().take_over(spec, former, false);
  LogFields fields{{"target", spec.stream}, {"from", former}, {"at", std::to_string(moved.at)}, {"lane", spec.lane}};
  if (moved.former_source != spec.source) {
    fields.emplace("source_from", source_label(moved.former_source));
    fields.emplace("source_to", source_label(spec.source));
  }
  app.observers().log(LogLevel::kInfo, "reaction target renamed; it goes on from the former's watermark", fields);
  return true;
}

// The row reads another source: a row of the new source takes over its
// watermark and its name, in one transaction.
void change_source(AppPort& app, const SubscriptionSpec& spec, const Subscription& row) {
  SubscriptionSpec successor = spec;
  // A name no target uses, short whatever the target's length; it lives only
  // inside the transaction of the subscribe and the take-over.
  successor.stream = "__moving__:" + detail::random_uuid();
  const TakenOver moved = app.store().take_over(successor, spec.stream, true);
  app.observers().log(LogLevel::kInfo,
                      "reaction source moved; events of the new source after the watermark are handled, "
                      "none at or below it",
                      {{"target", spec.stream},
                       {"from", source_label(row.source)},
                       {"to", source_label(spec.source)},
                       {"at", std::to_string(moved.at)}});
}

}  // namespace

std::vector<Subscription> move_target(AppPort& app, const SubscriptionSpec& spec,
                                      const std::optional<std::string>& former) {
  std::vector<Subscription> stored = app.store().query_streams(StreamFilter::exactly(spec.stream));
  if (former && take_over_former(app, spec, *former, !stored.empty())) return {};
  for (const Subscription& row : stored) {
    if (row.stream != spec.stream) continue;
    if (row.source != spec.source) {
      change_source(app, spec, row);
      return {};
    }
    if (row.lane != spec.lane)
      app.observers().log(
          LogLevel::kInfo, "reaction lane moved; the target keeps its watermark",
          {{"target", spec.stream}, {"from", row.lane}, {"to", spec.lane}, {"at", std::to_string(row.at)}});
  }
  return stored;
}

}  // namespace act::react
