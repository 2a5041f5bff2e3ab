// Killed workers across partitions: while this process commits to streams
// of every partition, build/partition_worker processes run each
// partition's own tally (a projection drained per partition, short leases)
// and the tally over all partitions (one read model, a vector of
// positions); every few hundred milliseconds one is SIGKILLed in the middle
// of its work and another started. Once the commits end and the last
// worker is killed, this process settles what is left. Nothing is lost,
// nothing applied twice, each stream's events in order, and in the read
// model over all partitions each partition's events in order.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/counter.hpp"
#include "support/partitions.hpp"
#include "support/tallies.hpp"

extern char** environ;

namespace act::test {
namespace {

using namespace std::chrono_literals;

constexpr int kStreams = 32;
constexpr int kRounds = 12;
constexpr int kMinKills = 6;

// A build/partition_worker process, SIGKILLed when it goes out of scope.
class WorkerProcess {
 public:
  WorkerProcess(const std::string& table, const std::string& prefix, std::int32_t partitions) {
    const std::string path = (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "partition_worker").string();
    const std::string count = std::to_string(partitions);
    std::vector<char*> argv{const_cast<char*>(path.c_str()), const_cast<char*>(table.c_str()),
                            const_cast<char*>(prefix.c_str()), const_cast<char*>(count.c_str()), nullptr};
    if (posix_spawn(&pid_, path.c_str(), nullptr, nullptr, argv.data(), environ) != 0) pid_ = -1;
  }
  ~WorkerProcess() { kill(); }
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  bool started() const noexcept { return pid_ > 0; }
  // SIGKILL and reap; true when it was still running (it did not die on its own).
  bool kill() {
    if (pid_ <= 0) return false;
    const bool running = ::waitpid(pid_, nullptr, WNOHANG) == 0;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
    return running;
  }

 private:
  pid_t pid_ = -1;
};

class KilledWorkerTest : public PartitionsTest {
 protected:
  // Each partition's own tally, summed over the partitions.
  std::string local_summary(const std::string& table) const {
    long rows = 0, distinct = 0, out_of_order = 0;
    for (std::int32_t p = 0; p < partitions(); ++p) {
      if (sql(p, "SELECT to_regclass('" + table + "') IS NULL")[0] == "t") continue;  // no worker set it up here yet
      std::istringstream counts(sql(p, tally_summary_sql(table, false))[0]);
      long r = 0, d = 0, o = 0;
      counts >> r >> d >> o;
      rows += r;
      distinct += d;
      out_of_order += o;
    }
    return std::to_string(rows) + " " + std::to_string(distinct) + " " + std::to_string(out_of_order);
  }
  std::string combined_summary(const std::string& table) const {
    if (read_model_sql("SELECT to_regclass('" + table + "') IS NULL")[0] == "t") return "0 0 0 0";
    return read_model_sql(tally_summary_sql(table, true))[0];
  }
};

TEST_F(KilledWorkerTest, NothingLostNothingTwiceInOrder) {
  const std::string table = "killed_" + std::to_string(::getpid());
  const std::string prefix = unique("cpp-killed");
  const int events = kStreams * kRounds;
  const std::string all_once = std::to_string(events) + " " + std::to_string(events) + " 0";

  std::vector<std::unique_ptr<WorkerProcess>> workers;
  for (int w = 0; w < 2; ++w) workers.push_back(std::make_unique<WorkerProcess>(table, prefix, partitions()));
  for (const auto& worker : workers) ASSERT_TRUE(worker->started()) << "build/partition_worker starts";

  std::atomic<bool> committing{true};
  std::thread committer([&] {
    App app = counter_app(map()).build();
    for (int round = 0; round < kRounds; ++round)
      for (int s = 0; s < kStreams; ++s)
        app.do_action("increment", {prefix + "-" + std::to_string(s), kBot, {}}, Increment{1});
    committing = false;
  });
  std::mt19937 random(static_cast<unsigned>(::getpid()));
  int kills = 0;
  int died_early = 0;
  // Kills go on until the commits end and at least kMinKills have landed.
  for (std::size_t next = 0; committing || kills + died_early < kMinKills; next = (next + 1) % workers.size()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(150 + random() % 200));
    if (workers[next]->kill()) ++kills; else ++died_early;
    workers[next] = std::make_unique<WorkerProcess>(table, prefix, partitions());
  }
  committer.join();
  std::this_thread::sleep_for(300ms);
  for (auto& worker : workers) {
    if (worker->kill()) ++kills; else ++died_early;
  }
  EXPECT_EQ(died_early, 0) << "a worker ended before it was killed (see its errors above)";
  EXPECT_GE(kills, kMinKills);
  const std::string before_settle = combined_summary(table);
  RecordProperty("kills", kills);
  RecordProperty("applied_by_killed_workers", before_settle);
  EXPECT_NE(before_settle.substr(0, 2), "0 ") << "the killed workers applied part of it";

  // What the killed workers left: their leases expire (500 ms) and this process applies the rest.
  App settler = tallied_app(map(), TallyOptions{table, prefix, partitions(), 0us, table}, read_model());
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < deadline &&
         (local_summary(table + "_local") != all_once || combined_summary(table) != all_once + " 0")) {
    settler.settle();
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(local_summary(table + "_local"), all_once) << "each partition's own tally";
  EXPECT_EQ(combined_summary(table), all_once + " 0") << "the tally over all partitions (before settling: "
                                                       << before_settle << ")";
}

}  // namespace
}  // namespace act::test
