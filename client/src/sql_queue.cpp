#include "sql_queue.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace act {

SqlRow sql_row_of(const db::Row& row) {
  std::vector<std::optional<std::string>> cells;
  cells.reserve(static_cast<std::size_t>(row.size()));
  for (int column = 0; column < row.size(); ++column) {
    if (row.is_null(column)) {
      cells.emplace_back();
    } else {
      cells.emplace_back(std::string(row.text(column)));
    }
  }
  return SqlRow(std::move(cells));
}

SqlQueue::~SqlQueue() {
  for (auto& [ticket, entry] : entries_) {
    if (const auto pending = entry.pending.lock()) pending->queue = nullptr;
  }
}

std::shared_ptr<detail::PendingRows> SqlQueue::queue(std::string_view sql, const db::Params& params) {
  auto pending = std::make_shared<detail::PendingRows>();
  pending->queue = this;
  pending->ticket = session_.queue(sql, params);
  entries_.emplace(pending->ticket, Entry{pending, position_});
  return pending;
}

bool SqlQueue::collect_oldest() {
  if (entries_.empty()) return false;
  const auto oldest = entries_.begin();
  const std::size_t ticket = oldest->first;
  const Entry entry = oldest->second;
  entries_.erase(oldest);
  const std::shared_ptr<detail::PendingRows> pending = entry.pending.lock();
  SqlRows rows;
  try {
    session_.collect(ticket, [&](const db::Row& row) {
      if (pending) rows.push_back(sql_row_of(row));
    });
  } catch (...) {
    failed_at_ = entry.position;
    for (auto& [later, left] : entries_) {
      if (const auto abandoned = left.pending.lock()) abandoned->queue = nullptr;
    }
    entries_.clear();
    throw;
  }
  if (pending) {
    pending->rows = std::move(rows);
    pending->queue = nullptr;
  }
  return true;
}

void SqlQueue::wait(detail::PendingRows& pending) {
  while (!pending.rows && !entries_.empty() && entries_.begin()->first <= pending.ticket) collect_oldest();
  if (!pending.rows) throw std::logic_error("a pipelined statement's result was read after its transaction ended");
}

void SqlQueue::finish() {
  collect_queued();
  session_.finish_queue();
}

void SqlQueue::collect_queued() {
  while (collect_oldest()) {
  }
}

const SqlRows& SqlResult::rows() const {
  if (!pending_->rows) {
    if (!pending_->queue) throw std::logic_error("a pipelined statement's result was read after its transaction ended");
    pending_->queue->wait(*pending_);
  }
  return *pending_->rows;
}

}  // namespace act
