// The smallest pg_act application: a counter with a limit and snapshots.
#include <iostream>

#include "example_support.hpp"

struct Counter {
  int count = 0;
};
struct Incremented {
  int by = 0;
};
struct Increment {
  int by = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Counter, count)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Incremented, by)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Increment, by)

int main(int argc, char** argv) try {
  const auto counter = act::state<Counter>("Counter")
                           .init([] { return Counter{}; })
                           .patch<Incremented>("Incremented",
                                               [](const Incremented& event, Counter state) {
                                                 state.count += event.by;
                                                 return state;
                                               })
                           .on<Increment>("increment")
                           .validate("by", [](const Increment& action) { return action.by > 0; }, "must be positive")
                           .given([](const Counter& state) { return state.count < 100; }, "count stays under 100")
                           .emit([](const Increment& action, const Counter&) { return act::events(Incremented{action.by}); })
                           .snap_every(3)
                           .build();

  auto app = act::app(example::connect(argc, argv)).with(counter).build();
  const std::string stream = "counter-" + example::run_suffix();
  const act::Actor actor{"u-1", "Ann"};

  for (int by : {5, 20, 30, 50, 10}) {
    try {
      const auto result = app.do_action("increment", {stream, actor, {}}, Increment{by});
      std::cout << "increment by " << by << " -> count " << result.state_as<Counter>().count << " (version "
                << result.version << (result.snapshotted ? ", snapshot taken" : "") << ")\n";
    } catch (const act::InvariantError& error) {
      std::cout << "increment by " << by << " refused: " << error.what() << "\n";
    }
  }
  try {
    app.do_action("increment", {stream, actor, {}}, Increment{-1});
  } catch (const act::ValidationError& error) {
    std::cout << "increment by -1 refused: " << error.what() << " (field " << error.field() << ")\n";
  }

  app.clear_cache();
  const auto loaded = app.load(counter, stream);
  std::cout << "cold load: count " << loaded.state.count << " at version " << loaded.version << ", "
            << loaded.replayed << " event(s) read thanks to the snapshot\n";
  return 0;
} catch (const std::exception& error) {
  std::cerr << "counter: " << error.what() << "\n";
  return 1;
}
