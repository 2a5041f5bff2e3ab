#include "progress.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "terminal.hpp"

namespace actctl {

namespace {

std::string Duration(double seconds) {
  const auto total = static_cast<long long>(seconds + 0.5);
  if (total >= 3600) return fmt::format("{}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60);
  return fmt::format("{}:{:02}", total / 60, total % 60);
}

}  // namespace

Progress::Progress(std::FILE* out, std::string task, std::string verb, std::string past)
    : out_(out),
      task_(std::move(task)),
      verb_(std::move(verb)),
      past_(std::move(past)),
      terminal_(IsTerminal(out)),
      colours_(ColoursWanted(out)) {}

bool Progress::Due(std::chrono::milliseconds every) {
  const Clock::time_point now = Clock::now();
  if (last_ != Clock::time_point::min() && now - last_ < every) return false;
  last_ = now;
  return true;
}

// Streams done of all, events checked (left out on the bar, which must fit
// 80 columns), their rate and the time left at it.
std::string Progress::Figures(std::int64_t streams, std::int64_t events, bool with_events) const {
  const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
  const double rate = seconds > 0 ? static_cast<double>(events) / seconds : 0;
  const std::string left =
      rate > 0 ? Duration(static_cast<double>(std::max<std::int64_t>(total_events_ - events, 0)) / rate) : "-";
  return fmt::format("{}/{} streams, {}{:.0f} events/s, ETA {}", std::min(streams, total_streams_), total_streams_,
                     with_events ? fmt::format("{} events, ", events) : "", rate, left);
}

// Redraws the line in place, cut to the terminal's width (a line that wraps
// cannot be redrawn with \r); `marked` columns from `mark` are the bar's
// filled part, green when colours are welcome.
void Progress::Draw(std::string line, std::size_t mark, std::size_t marked) {
  line.resize(std::min(line.size(), static_cast<std::size_t>(std::max(TerminalWidth(out_) - 1, 20))));
  const std::size_t columns = line.size();
  if (colours_ && marked > 0 && mark + marked <= line.size())
    line = line.substr(0, mark) + fmt::format(fmt::fg(fmt::terminal_color::green), "{}", line.substr(mark, marked)) +
           line.substr(mark + marked);
  fmt::print(out_, "\r{}{:{}}", line, "", drawn_ > columns ? drawn_ - columns : 0);
  std::fflush(out_);
  drawn_ = columns;
}

void Progress::Counting(std::int64_t streams) {
  if (terminal_) {
    if (Due(std::chrono::milliseconds(100))) Draw(fmt::format("{}: counting streams, {} so far", task_, streams), 0, 0);
  } else if (Clock::now() - started_ >= std::chrono::seconds(1) && Due(std::chrono::seconds(1))) {
    fmt::print(out_, "{}: counting streams, {} so far\n", task_, streams);
  }
}

void Progress::Start(std::int64_t streams, std::int64_t events) {
  total_streams_ = streams;
  total_events_ = events;
  started_ = Clock::now();
  last_ = Clock::time_point::min();
  if (terminal_)
    Update(0, 0);
  else
    fmt::print(out_, "{}: {} streams, {} events to {}\n", task_, streams, events, verb_);
}

void Progress::Update(std::int64_t streams, std::int64_t events) {
  if (!terminal_) {
    if (Clock::now() - started_ >= std::chrono::seconds(1) && Due(std::chrono::seconds(1)))
      fmt::print(out_, "{}: {}\n", task_, Figures(streams, events, true));
    return;
  }
  if (!Due(std::chrono::milliseconds(100))) return;
  constexpr std::size_t kBar = 20;
  const double done = total_events_ > 0    ? static_cast<double>(events) / static_cast<double>(total_events_)
                      : total_streams_ > 0 ? static_cast<double>(streams) / static_cast<double>(total_streams_)
                                           : 1.0;
  const auto filled = static_cast<std::size_t>(std::clamp(done, 0.0, 1.0) * kBar);
  const std::string prefix = task_ + " [";
  Draw(prefix + std::string(filled, '#') + std::string(kBar - filled, '-') + "] " + Figures(streams, events, false),
       prefix.size(), filled);
}

void Progress::Clear() {
  if (drawn_ == 0) return;
  fmt::print(out_, "\r{:{}}\r", "", drawn_);
  std::fflush(out_);
  drawn_ = 0;
  last_ = Clock::time_point::min();
}

void Progress::Finish(std::int64_t streams, std::int64_t events) {
  if (terminal_) {
    Clear();
    return;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
  fmt::print(out_, "{}: {} streams, {} events {} in {:.1f} s\n", task_, streams, events, past_, seconds);
}

}  // namespace actctl
