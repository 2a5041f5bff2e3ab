#include "chain_problem.hpp"

#include <fmt/format.h>

namespace actctl {

std::string ChainProblem(pqxx::transaction_base& txn, const std::string& stream, int first_bad_version) {
  const pqxx::row row = txn.exec_params1(
      "SELECT (SELECT max(e.version) FROM act.events e WHERE e.stream = $1 AND e.version < $2), "
      "EXISTS (SELECT FROM act.stream_anchors a WHERE a.stream = $1 AND a.version = $2)",
      stream, first_bad_version);
  const int bad = first_bad_version;
  if (row[0].is_null()) {
    if (bad == 0) return "the stored hash of version 0 does not match the event: the event or its hash was changed";
    if (!row[1].as<bool>())
      return fmt::format("the stream starts at version {} and has no anchor there: earlier events were removed", bad);
    return fmt::format(
        "version {} does not chain from the stream's anchor: the event, its hash or the anchor was "
        "changed",
        bad);
  }
  const int previous = row[0].as<int>();
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
