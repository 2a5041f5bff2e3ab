#pragma once
// The streams that have events, page by page in the database's collation
// order, each with how many events its versions span: what verify walks
// without holding every stream name at once.
#include <cstdint>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "stream_filter.hpp"

namespace actctl {

struct StreamSize {
  std::string stream;
  std::int64_t events = 0;  // last version - first version + 1: the count unless versions are missing
};

class StreamPages {
 public:
  StreamPages(pqxx::transaction_base& txn, const StreamFilter& filter);

  // The matching streams of the next page. It may be empty while more pages
  // follow (a pattern that matched none of the names it read): done() says.
  std::vector<StreamSize> Next();
  bool done() const { return done_; }

 private:
  pqxx::transaction_base& txn_;
  const StreamFilter& filter_;
  std::string after_;  // the last name read; "" sorts before every stream name
  bool done_ = false;
};

}  // namespace actctl
