#include "support/counter.hpp"

namespace act::test {

State<Counter> counter_state(CounterOptions options) {
  auto builder =
      state<Counter>("Counter")
          .version(options.version)
          .init([] { return Counter{}; })
          .patch<Incremented>("Incremented",
                              [](const Incremented& event, Counter counter) {
                                counter.count += event.by;
                                ++counter.changes;
                                return counter;
                              })
          .patch<Decremented>("Decremented",
                              [](const Decremented& event, Counter counter) {
                                counter.count -= event.by;
                                ++counter.changes;
                                return counter;
                              })
          .on<Increment>("increment")
          .validate("by", [](const Increment& action) { return action.by > 0; }, "must be positive")
          .retries(options.retries, Backoff{std::chrono::milliseconds(1), std::chrono::milliseconds(20), true})
          .emit([](const Increment& action, const Counter&) { return Incremented{action.by}; })
          .on<Increment>("increment_twice")
          .emit([](const Increment& action, const Counter&) {
            return events(Incremented{action.by}, Incremented{action.by});
          })
          .on<Decrement>("decrement")
          .given([](const Counter& counter) { return counter.count > 0; }, "the count is positive")
          .emit([](const Decrement& action, const Counter& counter) {
            if (counter.count - action.by < 0) throw InvariantError("decrement", "", "the count stays at 0 or more");
            return events(Decremented{action.by});
          })
          .on<Increment>("touch")
          .emit([](const Increment&, const Counter&) { return Events{}; });
  if (options.snap) {
    builder = std::move(builder).snap(options.snap);
  } else if (options.snap_every > 0) {
    builder = std::move(builder).snap_every(options.snap_every);
  }
  if (options.autoclose) builder = std::move(builder).autocloses(*options.autoclose);
  return std::move(builder).build();
}

}  // namespace act::test
