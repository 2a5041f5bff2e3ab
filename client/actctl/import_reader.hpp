#pragma once
// Reads a source store's events in its global order, a page per round trip,
// from one cursor: one snapshot of the source, and one sort whatever its
// indexes (Emmett's table has none on global_position).
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <pqxx/pqxx>
#include <string>

#include <nlohmann/json.hpp>

#include "act/event.hpp"
#include "import_source.hpp"

namespace actctl {

// The source store's database; a connection libpq cannot make is a
// UsageError (exit 2) saying why.
std::unique_ptr<pqxx::connection> ConnectSource(const std::string& dsn);

struct SourceEvent {
  std::int64_t position = 0;
  std::string stream;
  std::int32_t version = 0;
  std::string name;
  nlohmann::json data;
  nlohmann::json meta;
  act::Timestamp created{};
};

// What the source holds after a position: events, and events per stream.
struct SourceCounts {
  std::int64_t events = 0;
  std::map<std::string, std::int64_t> per_stream;
};

SourceCounts CountSource(pqxx::connection& connection, const ImportSource& source, std::int64_t after);

class SourceReader {
 public:
  // Events with positions above `after`. A source event pg_act cannot hold
  // (data or meta not an object, a version out of range) is a UsageError
  // naming its position.
  // The connection runs nothing else while the reader lives.
  SourceReader(pqxx::connection& connection, const ImportSource& source, std::int64_t after,
               std::int32_t page_size = 1000);

  // The next event, or none at the end of the source.
  std::optional<SourceEvent> Next();

 private:
  void ReadPage();

  pqxx::work txn_;
  const std::string fetch_;
  const std::int32_t page_size_;
  std::deque<SourceEvent> page_;
  bool exhausted_ = false;
};

}  // namespace actctl
