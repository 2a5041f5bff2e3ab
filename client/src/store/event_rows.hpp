#pragma once
// Rows of the act.events shape (statements.hpp) into typed events.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "act/event.hpp"
#include "act/log_transaction.hpp"
#include "act/store.hpp"
#include "act/stored_event.hpp"
#include "db/row.hpp"

namespace act::store_rows {

Committed committed_from(const db::Row& row);

// An act.events row as stored (the first eight columns of the act.events shape, jsonb as text).
StoredEvent stored_from(const db::Row& row);

// A row of act.checkpoints: size, root as hex, note, created as epoch microseconds.
StoredCheckpoint stored_checkpoint_from(const db::Row& row);

// A row of act.read (statements.hpp, kRead): an act.events row without pii and hash, and its tags.
Committed read_from(const db::Row& row);

Timestamp from_epoch_micros(std::int64_t micros);

// A row of act.verify: stream, events, valid, first_bad_version.
ChainCheck chain_check_from(const db::Row& row);

// Nullable columns.
std::optional<std::string> optional_text(const db::Row& row, int column);
std::optional<Timestamp> optional_time(const db::Row& row, int column);  // epoch microseconds
std::optional<std::int64_t> optional_int64(const db::Row& row, int column);

}  // namespace act::store_rows
