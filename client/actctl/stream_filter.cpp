#include "stream_filter.hpp"

#include <CLI/CLI.hpp>

#include "command.hpp"

namespace actctl {

void AddStreamFilter(CLI::App& command, StreamFilter& filter) {
  command.add_option("--stream", filter.stream, "only this stream, exactly (a pattern with --regex)")
      ->type_name("NAME");
  command.add_flag("--regex", filter.regex, "--stream is a POSIX regular expression, as act.query takes it");
}

void CheckStreamFilter(const StreamFilter& filter) {
  if (filter.regex && !filter.stream) throw UsageError("--regex applies to --stream, which is missing");
}

}  // namespace actctl
