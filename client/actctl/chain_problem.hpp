#pragma once
// What is wrong where a stream's hash chain breaks, in words: act.verify
// names only the first bad version.
#include <string>

#include "act/log_store.hpp"

namespace actctl {

// From the version before `first_bad_version` and the stream's anchor, the
// cases act.verify tells apart (sql/api/verify.sql): missing
// versions, a start without its anchor, a hash that does not match.
std::string ChainProblem(act::LogStore& log, const std::string& stream, int first_bad_version);

}  // namespace actctl
