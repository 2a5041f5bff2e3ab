#include "stream_filter.hpp"

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "database.hpp"

namespace actctl {

void AddStreamFilter(CLI::App& command, StreamFilter& filter) {
  command.add_option("--stream", filter.stream, "only this stream, exactly (a pattern with --regex)")
      ->type_name("NAME");
  command.add_flag("--regex", filter.regex, "--stream is a POSIX regular expression, as act.query takes it");
}

void CheckStreamFilter(pqxx::transaction_base& txn, const StreamFilter& filter) {
  if (filter.regex && !filter.stream) throw UsageError("--regex applies to --stream, which is missing");
  if (!filter.regex || !filter.stream) return;
  try {
    txn.exec_params("SELECT '' COLLATE \"C\" ~ $1", *filter.stream);
  } catch (const pqxx::sql_error& e) {
    if (e.sqlstate() != "2201B") throw;
    std::string message = OneLine(e.what());
    if (message.rfind("ERROR:", 0) == 0) message.erase(0, message.find_first_not_of(' ', 6));
    throw UsageError("--stream: " + message);
  }
}

}  // namespace actctl
