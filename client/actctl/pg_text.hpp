#pragma once
// PostgreSQL's text forms of the typed values the store layer returns, so
// that actctl prints what it printed when it read the server's text: an
// interval as IntervalStyle postgres shows it, a time as to_jsonb renders a
// timestamptz, a field as "-" when NULL.
#include <chrono>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "act/event.hpp"

namespace actctl {

// An interval of days and a time of day, as timestamptz subtraction makes
// it: "00:00:01.5", "2 days 03:00:00", "-1 days -00:00:02".
std::string IntervalText(std::chrono::microseconds interval);

// A time as to_jsonb renders a timestamptz in a UTC session: "2026-01-31T12:00:00.25+00:00".
std::string TimeJsonText(act::Timestamp time);

// JSON null for none, else the value (intervals and times in the forms above).
nlohmann::json Json(const std::optional<std::chrono::microseconds>& interval);
nlohmann::json Json(const std::optional<act::Timestamp>& time);
template <class T>
nlohmann::json Json(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// A JSON scalar as a table cell: a string as it is, null as "-", others as JSON.
std::string Cell(const nlohmann::json& value);

}  // namespace actctl
