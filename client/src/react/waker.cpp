#include "react/waker.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "act/errors.hpp"
#include "db/session.hpp"
#include "store/statements.hpp"

namespace act::react {
namespace {

constexpr db::Statement kNotifySetting{"act_notify_setting", "act.notify",
                                       "SELECT act.horizon(), coalesce(current_setting('act.notify', true), 'off')"};

std::int64_t single_int64(db::Session& session, const db::Statement& statement, const db::Params& params) {
  std::int64_t value = -1;
  session.run(statement, params, [&](const db::Row& row) { value = row.int64(0); });
  return value;
}

}  // namespace

void Waker::watch(Signal& stop, std::chrono::milliseconds& backoff) {
  std::atomic<std::uint64_t> statements{0};
  db::Session session(conninfo_, statements);
  // act.horizon() first: it loads the extension, which defines act.notify.
  std::int64_t horizon = -1;
  bool notifying = false;
  session.run(kNotifySetting, db::Params(), [&](const db::Row& row) {
    horizon = row.int64(0);
    notifying = row.text(1) == "on";
  });
  const bool listening = options_.listen && notifying;
  if (listening) session.listen("act_commit");
  backoff = options_.reconnect_min;
  wake_();  // anything committed while nobody was watching
  const auto slice = static_cast<std::int32_t>(options_.wait_slice.count());
  while (!stop.stopped()) {
    if (listening) {
      if (const std::vector<std::string> payloads = session.await_notifications(options_.wait_slice); !payloads.empty()) {
        if (on_notice_) {
          for (const std::string& payload : payloads)
            if (const auto notice = read_commit_notice(payload)) on_notice_(*notice);
        }
        wake_();
        continue;
      }
    }
    const std::int64_t latest =
        single_int64(session, store_sql::kWait, db::Params().number(horizon).number(listening ? 0 : slice));
    if (latest > horizon) {
      horizon = latest;
      wake_();
    }
  }
}

void Waker::run(Signal& stop) {
  std::chrono::milliseconds backoff = options_.reconnect_min;
  while (!stop.stopped()) {
    try {
      watch(stop, backoff);
    } catch (const Error& error) {
      // Lost or refused connection: try again, less and less often.
      observers_.error("waker", error.what(), LogLevel::kWarning);  // only latency suffers: lanes drain on their cycle
      stop.wait_until(std::chrono::steady_clock::now() + backoff);
      backoff = std::min(backoff * 2, options_.reconnect_max);
    }
  }
}

}  // namespace act::react
