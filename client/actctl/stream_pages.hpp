#pragma once
// The streams that have events, page by page in the database's collation
// order, each with how many events its versions span: what verify walks
// without holding every stream name at once.
#include <string>
#include <vector>

#include "act/log_store.hpp"
#include "stream_filter.hpp"

namespace actctl {

class StreamPages {
 public:
  StreamPages(act::LogStore& log, const StreamFilter& filter);

  // The matching streams of the next page. It may be empty while more pages
  // follow (a pattern that matched none of the names it read): done() says.
  std::vector<act::StreamSpan> Next();
  bool done() const { return done_; }

 private:
  act::LogStore& log_;
  const StreamFilter& filter_;
  std::string after_;  // the last name read; "" sorts before every stream name
  bool done_ = false;
};

}  // namespace actctl
