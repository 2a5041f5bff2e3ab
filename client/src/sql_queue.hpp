#pragma once
// The pipelined statements of one projection transaction, each remembered
// with the event whose handler sent it, so a failure that surfaces later is
// still the failure of that event.
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "act/sql.hpp"
#include "db/params.hpp"
#include "db/session.hpp"

namespace act {

// A result row in the text form SqlRow keeps.
SqlRow sql_row_of(const db::Row& row);

class SqlQueue {
 public:
  explicit SqlQueue(db::Session& session) noexcept : session_(session) {}
  ~SqlQueue();
  SqlQueue(const SqlQueue&) = delete;
  SqlQueue& operator=(const SqlQueue&) = delete;

  // The event whose handler queues what follows.
  void at_event(std::size_t position) noexcept { position_ = position; }
  std::shared_ptr<detail::PendingRows> queue(std::string_view sql, const db::Params& params);
  // Waits for the statements up to pending's, in order; a failure throws and names its event (failed_at).
  void wait(detail::PendingRows& pending);
  // Waits for every statement queued so far.
  void finish();
  // Waits for this queue's statements only: what others queued on the session
  // behind them travelled with them and is theirs to collect.
  void collect_queued();
  std::optional<std::size_t> failed_at() const noexcept { return failed_at_; }

 private:
  struct Entry {
    std::weak_ptr<detail::PendingRows> pending;
    std::size_t position = 0;
  };
  // Collects the oldest queued statement; false once none is left.
  bool collect_oldest();

  db::Session& session_;
  std::size_t position_ = 0;
  std::map<std::size_t, Entry> entries_;  // by ticket: the order they were queued in
  std::optional<std::size_t> failed_at_;
};

}  // namespace act
