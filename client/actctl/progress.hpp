#pragma once
// A long command's progress on stderr (verify's, import's): on a terminal a bar redrawn in place (with
// streams done of all, events per second and an estimate of the time left),
// elsewhere a plain line at most every second, and one at the start and end.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace actctl {

class Progress {
 public:
  // task names the command on each line; verb and past say what it does to
  // events ("check", "checked").
  explicit Progress(std::FILE* out, std::string task = "verify", std::string verb = "check",
                    std::string past = "checked");

  void Counting(std::int64_t streams);                     // while the streams are being counted
  void Start(std::int64_t streams, std::int64_t events);   // the totals to check (events: as versions span)
  void Update(std::int64_t streams, std::int64_t events);  // checked so far
  void Finish(std::int64_t streams, std::int64_t events);
  // Before a line goes to stdout, which may be the same terminal: wipes the
  // bar (the next Update draws it again).
  void Clear();

 private:
  using Clock = std::chrono::steady_clock;

  bool Due(std::chrono::milliseconds every);
  void Draw(std::string line, std::size_t mark, std::size_t marked);
  std::string Figures(std::int64_t streams, std::int64_t events, bool with_events) const;

  std::FILE* const out_;
  const std::string task_, verb_, past_;
  const bool terminal_;
  const bool colours_;
  Clock::time_point started_ = Clock::now();
  Clock::time_point last_ = Clock::time_point::min();
  std::int64_t total_streams_ = 0, total_events_ = 0;
  std::size_t drawn_ = 0;  // columns of the bar on screen, 0 when none
};

}  // namespace actctl
