#include "import_reader.hpp"

#include <fmt/format.h>

#include <limits>

#include "command.hpp"
#include "table.hpp"

namespace actctl {

namespace {

nlohmann::json Object(const pqxx::field& field, std::int64_t position, const char* what) {
  nlohmann::json value = nlohmann::json::parse(field.c_str());
  if (!value.is_object())
    throw UsageError(
        fmt::format("the source's event at position {} has {} {}, not a JSON object: pg_act keeps "
                    "objects only",
                    position, what, value.type_name()));
  return value;
}

}  // namespace

std::unique_ptr<pqxx::connection> ConnectSource(const std::string& dsn) {
  try {
    return std::make_unique<pqxx::connection>(dsn);
  } catch (const std::exception& e) {  // pqxx::broken_connection, or a connection string libpq refuses
    throw UsageError("cannot connect to the source: " + OneLine(e.what()));
  }
}

SourceCounts CountSource(pqxx::connection& connection, const ImportSource& source, std::int64_t after) {
  pqxx::work txn{connection};
  SourceCounts counts;
  for (const auto& row : txn.exec_params(
           "SELECT stream, count(*) FROM (" + source.events_sql + ") e WHERE position > $1 GROUP BY stream", after)) {
    const auto events = row[1].as<std::int64_t>();
    counts.per_stream.emplace(row[0].as<std::string>(), events);
    counts.events += events;
  }
  return counts;
}

SourceReader::SourceReader(pqxx::connection& connection, const ImportSource& source, std::int64_t after,
                           std::int32_t page_size)
    : txn_(connection), fetch_(fmt::format("FETCH {} FROM import_source", page_size)), page_size_(page_size) {
  txn_.exec("SET LOCAL TimeZone = 'UTC'");  // times as act::parse_timestamp reads them
  txn_.exec(fmt::format(
      "DECLARE import_source NO SCROLL CURSOR FOR SELECT position, stream, version, name, data::text, meta::text, "
      "created::text FROM ({}) e WHERE position > {} ORDER BY position",
      source.events_sql, after));
}

void SourceReader::ReadPage() {
  const pqxx::result rows = txn_.exec(fetch_);
  for (const auto& row : rows) {
    SourceEvent event;
    event.position = row[0].as<std::int64_t>();
    event.stream = row[1].as<std::string>();
    const auto version = row[2].as<std::int64_t>();
    if (version < 0 || version > std::numeric_limits<std::int32_t>::max())
      throw UsageError(fmt::format("the source's event at position {} has version {}, outside pg_act's 0 to {}",
                                   event.position, version, std::numeric_limits<std::int32_t>::max()));
    event.version = static_cast<std::int32_t>(version);
    event.name = row[3].as<std::string>();
    event.data = Object(row[4], event.position, "data");
    event.meta = Object(row[5], event.position, "metadata");
    event.created = act::parse_timestamp(row[6].c_str());
    page_.push_back(std::move(event));
  }
  if (static_cast<std::int64_t>(rows.size()) < page_size_) exhausted_ = true;
}

std::optional<SourceEvent> SourceReader::Next() {
  if (page_.empty() && !exhausted_) ReadPage();
  if (page_.empty()) return std::nullopt;
  SourceEvent event = std::move(page_.front());
  page_.pop_front();
  return event;
}

}  // namespace actctl
