#include "react/projection_apply.hpp"

namespace act::react {

void run_handlers(const detail::ProjectionModel& projection, const std::vector<Committed>& events, std::size_t count,
                  db::Session& session, SqlQueue& queue, std::size_t& position) {
  if (projection.batch) {
    Sql sql(session);
    projection.batch(events, sql);
    return;
  }
  // Queued: the statements travel pipelined, not one round trip per event.
  Sql sql(session, queue);
  for (position = 0; position < count; ++position) {
    const Committed& event = events[position];
    queue.at_event(position);
    const auto handler = projection.handlers.find(event.name);
    if (handler != projection.handlers.end() && handler->second) handler->second(event, sql);
  }
}

std::vector<Committed> handled_by(const detail::ProjectionModel& projection, const std::vector<Committed>& events) {
  std::vector<Committed> handled;
  for (const Committed& event : events) {
    if (projection.handlers.contains(event.name)) handled.push_back(event);
  }
  return handled;
}

}  // namespace act::react
