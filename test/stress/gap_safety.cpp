// Gap safety under concurrent writers: 8 writers commit (and sometimes roll
// back) with random pauses between taking ids and ending their transaction,
// while 2 readers follow `after`. Every committed id must reach each reader
// exactly once and in order; rolled-back ids never. Prints "PASSED FAILED".
// Usage: gap_safety SECONDS [READER_CONNINFO] (connection from PG* variables;
// the readers connect with READER_CONNINFO over them, a hot standby's, say).
// Readers go on until they have read the last committed id, at most
// kCatchUpSeconds after the writers end (a standby replays behind).
#include "pq_session.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using pq::Connect;
using pq::Connection;
using pq::Result;
using pq::Run;
using pq::Scalar;

void Write(int writer, std::chrono::steady_clock::time_point until, std::atomic<long>& commits) {
  Connection connection = Connect();
  std::mt19937 random(static_cast<unsigned>(writer) * 7919u + 17u);
  std::uniform_int_distribution<int> pause_ms(0, 20);
  std::uniform_int_distribution<int> percent(0, 99);
  const std::string stream = "writer-" + std::to_string(writer);
  while (std::chrono::steady_clock::now() < until) {
    Run(connection.get(), "BEGIN");
    Run(connection.get(), "SELECT count(*) FROM act.commit('" + stream + "', '[{\"name\": \"E\"}, {\"name\": \"F\"}]')");
    // The window the fence used to close: ids taken, not yet visible.
    std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms(random)));
    if (percent(random) < 10) {
      Run(connection.get(), "ROLLBACK");
    } else {
      Run(connection.get(), "COMMIT");
      ++commits;
    }
  }
}

constexpr int kCatchUpSeconds = 30;

struct ReaderLog {
  std::vector<long long> ids;
  bool in_order = true;
};

// last_id: -1 while writers run, then the last committed id (0: none).
void Read(const std::string& conninfo, std::atomic<long long>& last_id, ReaderLog& log) {
  Connection connection = Connect(conninfo);
  long long after = 0;
  std::chrono::steady_clock::time_point give_up{};
  for (;;) {
    const long long last = last_id.load();
    Result rows = Run(connection.get(), "SELECT id FROM act.query(after => " + std::to_string(after) + ")");
    for (int row = 0; row < PQntuples(rows.get()); ++row) {
      const long long id = std::atoll(PQgetvalue(rows.get(), row, 0));
      if (id <= after) log.in_order = false;
      log.ids.push_back(id);
      after = id;
    }
    if (last >= 0) {
      if (after >= last) return;
      const auto now = std::chrono::steady_clock::now();
      if (give_up == std::chrono::steady_clock::time_point{}) give_up = now + std::chrono::seconds(kCatchUpSeconds);
      if (now > give_up) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int seconds = argc > 1 ? std::atoi(argv[1]) : 5;
  const std::string reader_conninfo = argc > 2 ? argv[2] : "";
  int passed = 0;
  int failed = 0;
  try {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    std::atomic<long> commits{0};
    std::atomic<long long> last_id{-1};
    std::vector<ReaderLog> logs(2);
    std::vector<std::thread> readers;
    for (ReaderLog& log : logs) readers.emplace_back(Read, std::cref(reader_conninfo), std::ref(last_id), std::ref(log));
    std::vector<std::thread> writers;
    for (int w = 0; w < 8; ++w) writers.emplace_back(Write, w, until, std::ref(commits));
    for (auto& thread : writers) thread.join();
    Connection check = Connect();
    last_id = std::atoll(
        PQgetvalue(Run(check.get(), "SELECT coalesce(max(id), 0) FROM act.events WHERE stream LIKE 'writer-%'").get(), 0, 0));
    for (auto& thread : readers) thread.join();

    Result all = Run(check.get(), "SELECT id FROM act.events WHERE stream LIKE 'writer-%' ORDER BY id");
    std::vector<long long> committed;
    for (int row = 0; row < PQntuples(all.get()); ++row) committed.push_back(std::atoll(PQgetvalue(all.get(), row, 0)));
    const bool counted = static_cast<long>(committed.size()) == commits.load() * 2;
    std::printf("# %ld commits (%zu events) by 8 writers in %d s\n", commits.load(), committed.size(), seconds);
    (counted ? passed : failed) += 1;
    for (std::size_t r = 0; r < logs.size(); ++r) {
      const bool exact = logs[r].ids == committed;
      std::printf("# reader %zu: %zu ids seen, in order: %s, exactly the committed ids: %s\n", r, logs[r].ids.size(),
                  logs[r].in_order ? "yes" : "NO", exact ? "yes" : "NO");
      (logs[r].in_order && exact ? passed : failed) += 1;
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "gap_safety: %s\n", error.what());
    ++failed;
  }
  std::printf("%d %d\n", passed, failed);
  return 0;
}
