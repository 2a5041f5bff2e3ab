#pragma once
// What is wrong where a stream's hash chain breaks, in words: act.verify
// names only the first bad version.
#include <pqxx/pqxx>
#include <string>

namespace actctl {

// From the version before `first_bad_version` and the stream's anchor, the
// cases act.verify tells apart (sql/api/verify.sql): missing
// versions, a start without its anchor, a hash that does not match.
std::string ChainProblem(pqxx::transaction_base& txn, const std::string& stream, int first_bad_version);

}  // namespace actctl
