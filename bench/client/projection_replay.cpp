// Projection replay: N events on one stream, then App::rebuild (empty the
// read model, rewind the watermark, drain back to the head) with a handler
// per event (its upserts pipelined), a handler per event that reads each
// result (one round trip each, as every per-event handler paid before
// pipelining), or a batch handler (one statement per drained batch). All
// drain through the same lane, 1,000 events a cycle. The read model is one
// counter row for the stream (each event updates the row the previous one
// wrote, in the same transaction) or, in the `_row` scenarios, a row per
// event, as read models that list what happened keep them.
#include <stdexcept>

#include "support.hpp"

namespace {

const act::Lane kLane{"replay", std::chrono::seconds(30), 10, 1000};

void seed(act::Store& store, const std::string& stream, int events) {
  for (int done = 0; done < events; done += 1000) {
    std::vector<act::Message> chunk;
    for (int i = done; i < std::min(events, done + 1000); ++i) chunk.push_back({"Incremented", {{"by", 1}}, std::nullopt});
    store.commit(stream, chunk);
  }
}

enum class Handler { kPipelined, kSynchronous, kBatched };

// The projection of `stream` into table bench_replay_NAME, made with `columns`.
act::ProjectionBuilder kept_in(const std::string& stream, const std::string& name, const std::string& columns) {
  const std::string table = "bench_replay_" + name;
  return act::projection("replay-" + stream + "-" + name)
      .source(stream)
      .lane(kLane.name)
      .setup([table, columns](act::Sql& sql) { sql.exec("CREATE TABLE IF NOT EXISTS " + table + " (" + columns + ")"); })
      .truncate([table](act::Sql& sql) { sql.exec("TRUNCATE " + table); });
}

// One row per event: what a handler writes that does not update its own rows.
act::Projection row_per_event_projection(const std::string& stream, Handler kind) {
  const bool batched = kind == Handler::kBatched;
  const std::string name = batched ? "batched_row" : "each_row";
  const std::string table = "bench_replay_" + name;
  auto builder = kept_in(stream, name, "id bigint PRIMARY KEY, stream text NOT NULL, n bigint NOT NULL");
  if (!batched) {
    const std::string insert = "INSERT INTO " + table + " VALUES ($1, $2, $3)";
    return std::move(builder)
        .on<bench::Incremented>("Incremented",
                                [insert](const bench::Incremented& event, const act::Committed& committed, act::Sql& sql) {
                                  sql.exec(insert, {committed.id, committed.stream, event.by});
                                })
        .build();
  }
  const std::string insert_batch = "INSERT INTO " + table +
                                   " SELECT (r->>'id')::bigint, r->>'stream', (r->>'by')::bigint "
                                   "FROM jsonb_array_elements($1::jsonb) r";
  return std::move(builder)
      .on("Incremented")
      .batch([insert_batch](const std::vector<act::Committed>& batch, act::Sql& sql) {
        nlohmann::json rows = nlohmann::json::array();
        for (const act::Committed& event : batch)
          rows.push_back({{"id", event.id}, {"stream", event.stream}, {"by", event.data.at("by")}});
        sql.exec(insert_batch, {rows});
      })
      .build();
}

act::Projection replay_projection(const std::string& stream, Handler kind) {
  const bool batched = kind == Handler::kBatched;
  const std::string name = batched ? "batched" : kind == Handler::kPipelined ? "each" : "each_sync";
  const std::string table = "bench_replay_" + name;
  auto builder = kept_in(stream, name, "stream text PRIMARY KEY, n bigint NOT NULL");
  const std::string upsert = "INSERT INTO " + table + " AS t VALUES ($1, $2) ON CONFLICT (stream) DO UPDATE SET n = t.n + excluded.n";
  if (!batched) {
    const bool wait = kind == Handler::kSynchronous;
    return std::move(builder)
        .on<bench::Incremented>("Incremented",
                                [upsert, wait](const bench::Incremented& event, const act::Committed& committed, act::Sql& sql) {
                                  const act::SqlResult result = sql.exec(upsert, {committed.stream, event.by});
                                  if (wait) benchmark::DoNotOptimize(result.size());
                                })
        .build();
  }
  // The batch travels as one jsonb array.
  const std::string upsert_batch = "INSERT INTO " + table +
                                   " AS t SELECT r->>'stream', sum((r->>'by')::bigint) FROM jsonb_array_elements($1::jsonb) r "
                                   "GROUP BY 1 ON CONFLICT (stream) DO UPDATE SET n = t.n + excluded.n";
  return std::move(builder)
      .on("Incremented")
      .batch([upsert_batch](const std::vector<act::Committed>& batch, act::Sql& sql) {
        nlohmann::json rows = nlohmann::json::array();
        for (const act::Committed& event : batch) rows.push_back({{"stream", event.stream}, {"by", event.data.at("by")}});
        sql.exec(upsert_batch, {rows});
      })
      .build();
}

enum class Shape { kCounter, kRowPerEvent };

void replay(benchmark::State& state, Handler kind, Shape shape = Shape::kCounter) {
  const int events = static_cast<int>(state.range(0));
  auto pool = bench::pool(2);
  const std::string stream = bench::stream_name("replay");
  act::Store store(pool);
  seed(store, stream, events);
  const act::Projection projection =
      shape == Shape::kCounter ? replay_projection(stream, kind) : row_per_event_projection(stream, kind);
  act::App app = act::app(pool).lane(kLane).with(projection).declares({"Incremented"}).build();  // seeded through the store
  bench::measure(
      state,
      [&] {
        const act::RebuildProgress done = app.rebuild(projection);
        if (done.blocked || done.applied != events) throw std::runtime_error("replay applied " + std::to_string(done.applied));
      },
      {.warmup = 1, .items = static_cast<double>(events), .item = "events"});
}

void replay_each(benchmark::State& state) { replay(state, Handler::kPipelined); }
void replay_each_sync(benchmark::State& state) { replay(state, Handler::kSynchronous); }
void replay_batched(benchmark::State& state) { replay(state, Handler::kBatched); }
void replay_each_row(benchmark::State& state) { replay(state, Handler::kPipelined, Shape::kRowPerEvent); }
void replay_batched_row(benchmark::State& state) { replay(state, Handler::kBatched, Shape::kRowPerEvent); }

}  // namespace

BENCHMARK(replay_each)->Name("client/projection_replay_per_event")->Arg(1000)->Arg(5000)->Arg(10000)->Iterations(bench::iterations(10, 2));
BENCHMARK(replay_each_sync)->Name("client/projection_replay_per_event_sync")->Arg(1000)->Arg(5000)->Arg(10000)->Iterations(bench::iterations(10, 2));
BENCHMARK(replay_batched)->Name("client/projection_replay_batched")->Arg(1000)->Arg(5000)->Arg(10000)->Iterations(bench::iterations(10, 2));
BENCHMARK(replay_each_row)->Name("client/projection_replay_per_event_row")->Arg(1000)->Arg(5000)->Arg(10000)->Iterations(bench::iterations(10, 2));
BENCHMARK(replay_batched_row)->Name("client/projection_replay_batched_row")->Arg(1000)->Arg(5000)->Arg(10000)->Iterations(bench::iterations(10, 2));
