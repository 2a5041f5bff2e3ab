#pragma once
// The final check of an import: pg_act's events of the source's streams, in
// id order, are the source's events in its global order (stream, version,
// name, data, meta, time), and each stream holds as many events as in the
// source.
#include <cstdint>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "act/store.hpp"
#include "import_source.hpp"

namespace actctl {

struct CheckReport {
  std::int64_t events = 0;  // compared
  std::int64_t streams = 0;
  std::vector<std::string> differences;  // the first few, each one line
  std::int64_t difference_count = 0;
};

CheckReport CheckImport(pqxx::connection& source_connection, const ImportSource& source, act::Store& store);

}  // namespace actctl
