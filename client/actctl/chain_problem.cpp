#include "chain_problem.hpp"

#include <fmt/format.h>

namespace actctl {

std::string ChainProblem(act::LogStore& log, const std::string& stream, int first_bad_version) {
  const act::ChainStart start = log.chain_start(stream, first_bad_version);
  const int bad = first_bad_version;
  if (!start.previous_version) {
    if (bad == 0) return "the stored hash of version 0 does not match the event: the event or its hash was changed";
    if (!start.anchored)
      return fmt::format("the stream starts at version {} and has no anchor there: earlier events were removed", bad);
    return fmt::format(
        "version {} does not chain from the stream's anchor: the event, its hash or the anchor was "
        "changed",
        bad);
  }
  const int previous = *start.previous_version;
  if (previous < bad - 1)
    return previous + 2 == bad ? fmt::format("version {} is missing", bad - 1)
                               : fmt::format("versions {} to {} are missing", previous + 1, bad - 1);
  // Version `previous` verified, so its stored hash matches its own contents;
  // it may still have been rewritten together with a recomputed hash.
  return fmt::format(
      "the stored hash of version {} does not match the event chained from version {}: the event or its hash was "
      "changed, or an earlier event was rewritten along with its hash",
      bad, previous);
}

}  // namespace actctl
