#include "react/projection_apply.hpp"

#include <algorithm>
#include <exception>

#include <nlohmann/json.hpp>

#include "act/errors.hpp"
#include "act/subscriptions.hpp"
#include "react/projection_views.hpp"
#include "store/event_rows.hpp"
#include "store/statements.hpp"

namespace act::react {

void run_handlers(const detail::ProjectionModel& projection, const std::vector<Committed>& events, std::size_t count,
                  db::Session& session, SqlQueue& queue, std::size_t& position) {
  if (projection.batch) {
    Sql sql(session);
    enter_schema(sql, projection);
    projection.batch(events, sql);
    return;
  }
  // Queued: the statements travel pipelined, not one round trip per event.
  Sql sql(session, queue);
  enter_schema(sql, projection);
  for (position = 0; position < count; ++position) {
    const Committed& event = events[position];
    queue.at_event(position);
    const auto handler = projection.handlers.find(event.name);
    if (handler != projection.handlers.end() && handler->second) handler->second(event, sql);
  }
}

std::optional<HandlerFailure> apply_handlers(const detail::ProjectionModel& projection,
                                             const std::vector<Committed>& events, std::size_t count,
                                             db::Session& session, const QueueBehind& behind) {
  SqlQueue queue(session);
  std::size_t position = 0;
  HandlerFailure failure;
  try {
    run_handlers(projection, events, count, session, queue, position);
    if (behind) {
      behind();
      queue.collect_queued();
    } else if (!projection.batch) {
      queue.finish();
    }
    return std::nullopt;
  } catch (const NonRetryableError& error) {
    failure.error = error.what();
    failure.retryable = false;
  } catch (const std::exception& error) {
    failure.error = error.what();
  } catch (...) {
    failure.error = "a handler threw a non-exception";
  }
  if (projection.batch) return failure;  // at 0: the batch fails as one
  // A statement's failure surfaces after its handler returned, so it belongs
  // to the event that queued it; one queued before a throwing handler may
  // have failed first.
  if (!queue.failed_at()) {
    try {
      queue.finish();
    } catch (...) {  // the transaction is lost either way: only where matters
    }
  }
  failure.at = queue.failed_at() ? std::min(*queue.failed_at(), position) : position;
  return failure;
}

std::vector<Committed> read_page(db::Session& session, const detail::ProjectionModel& projection,
                                 const std::vector<std::string>& names, std::optional<std::int64_t> after,
                                 std::int64_t through, std::int32_t limit) {
  const std::optional<std::string>& source = projection.route.source;
  db::Params params;
  params.text(source).number(after).number(std::optional<std::int64_t>(through + 1)).json(nlohmann::json(names))
      .number(std::optional<std::int32_t>(limit)).boolean(false).boolean(source && !is_pattern(*source))
      .time(std::nullopt).time(std::nullopt).text(std::optional<std::string>()).boolean(false);
  std::vector<Committed> page;
  session.run(store_sql::kQuery, params, [&](const db::Row& row) { page.push_back(store_rows::committed_from(row)); });
  return page;
}

std::vector<Committed> handled_by(const detail::ProjectionModel& projection, const std::vector<Committed>& events) {
  std::vector<Committed> handled;
  for (const Committed& event : events) {
    if (projection.handlers.contains(event.name)) handled.push_back(event);
  }
  return handled;
}

}  // namespace act::react
