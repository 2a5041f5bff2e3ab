// The C++ client through failovers: one act::Store on one connection pool,
// created once over a multi-host connection string, commits to stream
// client-0 with the expected version until STOP_FILE exists. A call that
// fails because the primary went away (StoreError with no SQLSTATE, 57P*,
// or 25006 from a node that is a standby now) is retried through the same
// store: the pool drops the broken connection and opens the next one to
// whichever node is the primary now, by itself. A commit in doubt is
// settled by reading the stream (each event carries a token). The ledger of
// acknowledged commits goes to stdout as "stream<TAB>version<TAB>id"; the
// summary, with how often the store came back after losing the primary, to
// stderr. Exit status 1 when the store never came back or a check failed.
// Usage: failover_client CONNINFO STOP_FILE
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "act/act.hpp"

namespace {

using Clock = std::chrono::steady_clock;

bool PrimaryLost(const act::StoreError& error) {
  const std::string& code = error.sqlstate();
  return code.empty() || code.rfind("57P", 0) == 0 || code == "25006" || code == "08006" || code == "08001";
}

// Runs `call` until it goes through, while the failover lasts (one minute at most).
template <class Call>
auto Retrying(Call&& call) {
  const auto until = Clock::now() + std::chrono::minutes(1);
  for (;;) {
    try {
      return call();
    } catch (const act::StoreError& error) {
      if (!PrimaryLost(error) || Clock::now() > until) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
}

// The token of the event at `version` of `stream`, when there is one.
std::optional<std::string> TokenAt(act::Store& store, const std::string& stream, std::int32_t version) {
  std::optional<std::string> token;
  act::Query query;
  query.stream = stream;
  store.query(query, [&](const act::Committed& event) {
    if (event.version == version) token = event.data.value("token", "");
  });
  return token;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 3) {
    std::fprintf(stderr, "usage: failover_client CONNINFO STOP_FILE\n");
    return 2;
  }
  const std::string stop_file = argv[2];
  auto pool = std::make_shared<act::ConnectionPool>(argv[1], act::PoolOptions{2});
  act::Store store(pool);
  const std::string stream = "client-0";
  std::int32_t version = -1;
  long acknowledged = 0, failures = 0, recoveries = 0, sequence = 0;
  bool failing = false;
  while (!std::filesystem::exists(stop_file)) {
    const std::string token = "client-" + std::to_string(sequence++);
    try {
      const auto rows = store.commit(stream, {act::Message{"Stormed", {{"token", token}}, std::nullopt}}, nlohmann::json::object(),
                                     version);
      ++version;
      ++acknowledged;
      std::printf("%s\t%d\t%lld\n", stream.c_str(), version, static_cast<long long>(rows.front().id));
      if (failing) ++recoveries;
      failing = false;
    } catch (const act::StoreError& error) {
      if (!PrimaryLost(error)) throw;
      ++failures;
      failing = true;
      // In doubt: the commit may have landed before its reply was lost.
      const std::optional<std::string> landed = Retrying([&] { return TokenAt(store, stream, version + 1); });
      if (landed && *landed != token) throw std::runtime_error("version " + std::to_string(version + 1) + " holds " + *landed);
      if (landed) ++version;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::fprintf(stderr,
               "# failover_client: %ld commits acknowledged through one store, %ld calls failed with the primary "
               "gone, the store came back by itself %ld times\n",
               acknowledged, failures, recoveries);
  return recoveries > 0 && acknowledged > 0 ? 0 : 1;
} catch (const std::exception& error) {
  std::fprintf(stderr, "failover_client: %s\n", error.what());
  return 1;
}
