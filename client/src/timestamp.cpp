// Timestamps as text: what the server accepts as a timestamptz parameter
// and what it renders inside jsonb (to_jsonb of a timestamptz).
#include <charconv>
#include <cstdio>

#include "act/errors.hpp"
#include "act/event.hpp"

namespace act {
namespace {

using std::chrono::days;
using std::chrono::floor;
using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::minutes;
using std::chrono::seconds;

[[noreturn]] void bad_timestamp(std::string_view text) {
  throw ValidationError("not a timestamp with an offset: \"" + std::string(text) + "\"", "timestamp", {});
}

// Reads exactly `digits` decimal digits at text[at].
int read_digits(std::string_view text, std::size_t at, std::size_t digits) {
  int value = 0;
  if (at + digits > text.size()) bad_timestamp(text);
  const char* first = text.data() + at;
  const auto [end, error] = std::from_chars(first, first + digits, value);
  if (error != std::errc() || end != first + digits) bad_timestamp(text);
  return value;
}

void expect(std::string_view text, std::size_t at, std::string_view allowed) {
  if (at >= text.size() || allowed.find(text[at]) == std::string_view::npos) bad_timestamp(text);
}

}  // namespace

std::string to_iso8601(Timestamp time) {
  const auto day = floor<days>(time);
  const std::chrono::year_month_day date{day};
  const std::chrono::hh_mm_ss clock{time - day};
  char text[40];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d.%06dZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(clock.hours().count()), static_cast<int>(clock.minutes().count()),
                static_cast<int>(clock.seconds().count()), static_cast<int>(clock.subseconds().count()));
  return text;
}

// YYYY-MM-DD(T| )HH:MM:SS[.f{1,6}](Z|±HH[:MM])
Timestamp parse_timestamp(std::string_view text) {
  const int year = read_digits(text, 0, 4);
  expect(text, 4, "-");
  const int month = read_digits(text, 5, 2);
  expect(text, 7, "-");
  const int day = read_digits(text, 8, 2);
  expect(text, 10, "T ");
  const int hour = read_digits(text, 11, 2);
  expect(text, 13, ":");
  const int minute = read_digits(text, 14, 2);
  expect(text, 16, ":");
  const int second = read_digits(text, 17, 2);
  std::size_t at = 19;
  std::int64_t micros = 0;
  if (at < text.size() && text[at] == '.') {
    std::size_t digits = 0;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, ++digits) {
      if (digits < 6) micros = micros * 10 + (text[at] - '0');
    }
    if (digits == 0) bad_timestamp(text);
    for (; digits < 6; ++digits) micros *= 10;
  }
  minutes offset{0};
  if (at < text.size() && text[at] == 'Z') {
    ++at;
  } else {
    expect(text, at, "+-");
    const bool behind = text[at] == '-';
    int offset_minutes = read_digits(text, at + 1, 2) * 60;
    at += 3;
    if (at < text.size() && text[at] == ':') {
      offset_minutes += read_digits(text, at + 1, 2);
      at += 3;
    }
    offset = minutes(behind ? -offset_minutes : offset_minutes);
  }
  if (at != text.size()) bad_timestamp(text);

  const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60) bad_timestamp(text);
  const auto local = std::chrono::sys_days(date) + hours(hour) + minutes(minute) + seconds(second) + microseconds(micros);
  return Timestamp(local - offset);
}

}  // namespace act
