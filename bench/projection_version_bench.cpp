// A new projection version at scale: EVENTS events over 1,000 streams
// committed straight through the store, then the time version 2 takes to
// build from the start of the log and become current (App::switch_projection:
// drained on this thread, 1,000 events a cycle, a handler writing one row
// per event, then the switch's transaction). Version 1 is declared in a lane
// of its own that nothing drains, so the figure is version 2's alone.
// Usage: projection_version_bench [EVENTS] (default 1,000,000).
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "act/act.hpp"
#include "stats.hpp"

namespace {

using namespace std::chrono_literals;

struct Ticked {
  int n = 0;
};
void from_json(const nlohmann::json& json, Ticked& ticked) { ticked.n = json.at("n").get<int>(); }

constexpr int kStreams = 1000;

act::Projection version(const std::string& name, const std::string& table, std::int32_t number,
                        const std::string& lane) {
  auto builder =
      act::projection(name)
          .source("^" + name + "-")
          .lane(lane)
          .setup([table](act::Sql& sql) {
            sql.exec("CREATE TABLE IF NOT EXISTS " + table + " (event_id bigint PRIMARY KEY, stream text NOT NULL)");
          })
          .on<Ticked>("Ticked", [table](const Ticked&, const act::Committed& event, act::Sql& sql) {
            sql.exec("INSERT INTO " + table + " VALUES ($1, $2)", {event.id, event.stream});
          });
  if (number != 1) builder = std::move(builder).version(number);
  return std::move(builder).build();
}

}  // namespace

int main(int argc, char** argv) try {
  const int events = argc > 1 ? std::atoi(argv[1]) : 1'000'000;
  auto pool = std::make_shared<act::ConnectionPool>("", act::PoolOptions{4});
  act::ensure_extension(*pool);
  const std::string run = std::to_string(std::chrono::system_clock::now().time_since_epoch().count() % 100000000);
  const std::string name = "versions-" + run;
  act::Store store(pool);
  const int per_stream = events / kStreams;
  for (int s = 0; s < kStreams; ++s) {
    std::vector<act::Message> batch;
    for (int i = 0; i < per_stream; ++i) batch.push_back({"Ticked", {{"n", i}}, std::nullopt});
    store.commit(name + "-" + std::to_string(s), batch);
  }
  const act::Lane idle{"versions-idle-" + run, 30s};
  const act::Lane building{"versions-build-" + run, 30s, 10, 1000};
  const std::string table = "bench_versions_" + run;
  const act::Projection v2 = version(name, table, 2, building.name);
  auto app = act::app(pool)
                 .declares({"Ticked"})
                 .lane(idle)
                 .lane(building)
                 .with(version(name, table, 1, idle.name))
                 .with(v2)
                 .build();
  const auto started = bench::Clock::now();
  const act::SwitchResult switched = app.switch_projection(v2);
  const double seconds = bench::milliseconds_since(started) / 1000;
  nlohmann::json fields{{"p50_ms", seconds * 1000},
                        {"p95_ms", seconds * 1000},
                        {"ops_per_s", per_stream * kStreams / seconds},
                        {"ops", "events applied by the new version"},
                        {"latency_of", "build from the log start + switch"},
                        {"events", per_stream * kStreams},
                        {"streams", kStreams},
                        {"seconds", seconds},
                        {"switched", switched.switched},
                        {"lag_at_switch", switched.lag}};
  bench::print_record("projection_version/build_and_switch", fields);
  return switched.switched ? 0 : 1;
} catch (const std::exception& error) {
  std::cerr << "projection_version_bench: " << error.what() << "\n";
  return 1;
}
