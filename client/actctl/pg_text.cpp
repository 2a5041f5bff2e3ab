#include "pg_text.hpp"

#include <fmt/format.h>

namespace actctl {

namespace {

using std::chrono::microseconds;

// Seconds with their fraction, trailing zeros dropped: "05", "05.25".
std::string Seconds(std::chrono::seconds whole, microseconds fraction) {
  std::string text = fmt::format("{:02}", whole.count());
  if (fraction.count() == 0) return text;
  std::string digits = fmt::format("{:06}", fraction.count());
  while (digits.back() == '0') digits.pop_back();
  return text + "." + digits;
}

}  // namespace

std::string IntervalText(microseconds interval) {
  const bool negative = interval.count() < 0;
  microseconds rest = negative ? -interval : interval;
  const auto day_count = std::chrono::floor<std::chrono::days>(rest);
  rest -= day_count;
  const char* sign = negative ? "-" : "";
  std::string text;
  if (day_count.count() != 0)
    text = fmt::format("{}{} day{}", sign, day_count.count(), !negative && day_count.count() == 1 ? "" : "s");
  if (rest.count() != 0 || day_count.count() == 0) {
    const std::chrono::hh_mm_ss clock{rest};
    text += fmt::format("{}{}{:02}:{:02}:{}", text.empty() ? "" : " ", sign, clock.hours().count(),
                        clock.minutes().count(), Seconds(clock.seconds(), clock.subseconds()));
  }
  return text;
}

std::string TimeJsonText(act::Timestamp time) {
  const auto day = std::chrono::floor<std::chrono::days>(time);
  const std::chrono::year_month_day date{day};
  const std::chrono::hh_mm_ss clock{time - day};
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{}+00:00", static_cast<int>(date.year()),
                     static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()), clock.hours().count(),
                     clock.minutes().count(), Seconds(clock.seconds(), clock.subseconds()));
}

nlohmann::json Json(const std::optional<microseconds>& interval) {
  return interval ? nlohmann::json(IntervalText(*interval)) : nlohmann::json(nullptr);
}

nlohmann::json Json(const std::optional<act::Timestamp>& time) {
  return time ? nlohmann::json(TimeJsonText(*time)) : nlohmann::json(nullptr);
}

std::string Cell(const nlohmann::json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

}  // namespace actctl
