#pragma once
// The stream selection tail and verify share: --stream NAME, exact unless
// --regex makes it a pattern (matched in the C collation, as act.query does).
#include <optional>
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

// A UsageError (exit 2, one line) for --regex without --stream. A pattern the
// server cannot compile is the command's to report, naming --stream.
void CheckStreamFilter(const StreamFilter& filter);

}  // namespace actctl
