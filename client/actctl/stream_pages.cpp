#include "stream_pages.hpp"

#include <optional>

namespace actctl {

namespace {

// Names read per call.
constexpr int kPageSize = 1000;

}  // namespace

StreamPages::StreamPages(act::LogStore& log, const StreamFilter& filter) : log_(log), filter_(filter) {}

std::vector<act::StreamSpan> StreamPages::Next() {
  std::vector<act::StreamSpan> streams;
  if (done_) return streams;
  if (filter_.stream && !filter_.regex) {
    done_ = true;
    if (const std::optional<std::int64_t> span = log_.stream_span(*filter_.stream))
      streams.push_back({*filter_.stream, *span});
    return streams;
  }
  act::StreamPage page = log_.stream_page(after_, kPageSize, filter_.stream);
  if (page.read > 0) after_ = page.last;
  done_ = page.read < kPageSize;
  return std::move(page.streams);
}

}  // namespace actctl
