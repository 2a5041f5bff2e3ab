#pragma once
// The stream selection tail and verify share: --stream NAME, exact unless
// --regex makes it a pattern (matched in the C collation, as act.query does).
#include <optional>
#include <pqxx/pqxx>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace actctl {

struct StreamFilter {
  std::optional<std::string> stream;  // none: every stream
  bool regex = false;
};

void AddStreamFilter(CLI::App& command, StreamFilter& filter);

// A UsageError (exit 2, one line) for --regex without --stream, or a pattern
// the server cannot compile; checked before anything is read, so that the
// line names the option rather than an argument of an SQL function.
void CheckStreamFilter(pqxx::transaction_base& txn, const StreamFilter& filter);

}  // namespace actctl
