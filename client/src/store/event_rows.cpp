#include "store/event_rows.hpp"

#include <utility>

namespace act::store_rows {
namespace {

enum Column : int { kId, kStream, kVersion, kName, kData, kMeta, kPii, kCreatedMicros, kHash, kTags };

nlohmann::json parse_json(std::string_view text) { return nlohmann::json::parse(text.begin(), text.end()); }

}  // namespace

Timestamp from_epoch_micros(std::int64_t micros) { return Timestamp(std::chrono::microseconds(micros)); }

ChainCheck chain_check_from(const db::Row& row) {
  ChainCheck check;
  check.stream = row.text(0);
  check.events = row.int64(1);
  check.valid = row.boolean(2);
  if (!row.is_null(3)) check.first_bad_version = row.int32(3);
  return check;
}

std::optional<std::string> optional_text(const db::Row& row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return std::string(row.text(column));
}

std::optional<Timestamp> optional_time(const db::Row& row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return from_epoch_micros(row.int64(column));
}

std::optional<std::int64_t> optional_int64(const db::Row& row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return row.int64(column);
}

StoredEvent stored_from(const db::Row& row) {
  StoredEvent event;
  event.id = row.int64(0);
  event.stream = row.text(1);
  event.version = row.int32(2);
  event.name = row.text(3);
  event.data = row.text(4);
  event.meta = row.text(5);
  event.pii = optional_text(row, 6);
  event.created = from_epoch_micros(row.int64(7));
  return event;
}

StoredCheckpoint stored_checkpoint_from(const db::Row& row) {
  return {row.int64(0), optional_text(row, 1), optional_text(row, 2), from_epoch_micros(row.int64(3))};
}

Committed committed_from(const db::Row& row) {
  Committed event;
  event.id = row.int64(kId);
  event.stream = row.text(kStream);
  event.version = row.int32(kVersion);
  event.name = row.text(kName);
  event.data = parse_json(row.text(kData));
  event.meta = parse_json(row.text(kMeta));
  if (!row.is_null(kPii)) event.pii = parse_json(row.text(kPii));
  event.created = from_epoch_micros(row.int64(kCreatedMicros));
  if (!row.is_null(kHash)) event.hash = row.text(kHash);  // act.read sends none
  return event;
}

Committed read_from(const db::Row& row) {
  Committed event = committed_from(row);
  event.tags = parse_json(row.text(kTags)).get<std::vector<std::string>>();
  return event;
}

}  // namespace act::store_rows
