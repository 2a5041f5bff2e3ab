#include "db/error_mapping.hpp"

#include <charconv>

#include <nlohmann/json.hpp>

#include "act/errors.hpp"

namespace act::db {
namespace {

constexpr std::string_view kConflictPrefix = "concurrency conflict on stream \"";
constexpr std::string_view kExpectedMarker = ": expected version ";
constexpr std::string_view kActualMarker = ", actual version ";
constexpr std::string_view kClosedPrefix = "stream \"";
constexpr std::string_view kClosedSuffix = " is closed";

std::optional<std::int32_t> parse_int(std::string_view text) {
  std::int32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// quoted is what followed the opening quote up to the text after the name:
// `name"` in full, or `start..." (1234 bytes)` when the server cut the name.
std::optional<std::string> unquote_stream(std::string_view quoted, std::string_view subject) {
  if (quoted.ends_with('"')) return std::string(quoted.substr(0, quoted.size() - 1));
  if (quoted.ends_with(" bytes)") && quoted.find("...\" (") != std::string_view::npos) {
    if (!subject.empty()) return std::string(subject);
    return std::string(quoted);  // the best the message offers
  }
  return std::nullopt;
}

}  // namespace

std::string setup_hint(std::string_view sqlstate, std::string_view message) {
  // 3F000: the call reached a database without the extension.
  if (sqlstate == "3F000" && message == R"(schema "act" does not exist)")
    return " (pg_act is not installed in this database: run CREATE EXTENSION pg_act)";
  // 42883 on one of ours: the extension is older than this client.
  if (sqlstate == "42883" && message.starts_with("function act.") && message.ends_with(" does not exist"))
    return " (the installed pg_act may be older than this client: run ALTER EXTENSION pg_act UPDATE)";
  return {};
}

bool is_connection_loss(std::string_view sqlstate) {
  // 08: connection exceptions; 57P01-57P03: the server shut the session down.
  return sqlstate.starts_with("08") || sqlstate == "57P01" || sqlstate == "57P02" || sqlstate == "57P03";
}

std::string primary_message(std::string_view driver_text) {
  for (std::string_view severity : {"ERROR:  ", "FATAL:  ", "PANIC:  "}) {
    if (driver_text.starts_with(severity)) {
      driver_text.remove_prefix(severity.size());
      break;
    }
  }
  for (std::string_view trailer : {"\nDETAIL:  ", "\nHINT:  ", "\nCONTEXT:  ", "\nLINE ", "\nQUERY:  "}) {
    if (const auto at = driver_text.find(trailer); at != std::string_view::npos) driver_text = driver_text.substr(0, at);
  }
  while (!driver_text.empty() && (driver_text.back() == '\n' || driver_text.back() == ' ')) driver_text.remove_suffix(1);
  return std::string(driver_text);
}

std::optional<Conflict> parse_conflict(std::string_view message, std::string_view subject) {
  if (!message.starts_with(kConflictPrefix)) return std::nullopt;
  message.remove_prefix(kConflictPrefix.size());
  // Search from the end: the stream name itself may contain the markers.
  const auto actual_at = message.rfind(kActualMarker);
  if (actual_at == std::string_view::npos) return std::nullopt;
  const auto expected_at = message.rfind(kExpectedMarker, actual_at);
  if (expected_at == std::string_view::npos) return std::nullopt;

  Conflict conflict;
  const auto stream = unquote_stream(message.substr(0, expected_at), subject);
  const auto actual = parse_int(message.substr(actual_at + kActualMarker.size()));
  const std::string_view expected =
      message.substr(expected_at + kExpectedMarker.size(), actual_at - expected_at - kExpectedMarker.size());
  if (!stream || !actual) return std::nullopt;
  conflict.stream = *stream;
  conflict.actual_version = *actual;
  if (expected != "any") {
    conflict.expected_version = parse_int(expected);
    if (!conflict.expected_version) return std::nullopt;
  }
  return conflict;
}

std::optional<std::string> parse_closed_stream(std::string_view message, std::string_view subject) {
  if (!message.starts_with(kClosedPrefix) || !message.ends_with(kClosedSuffix)) return std::nullopt;
  message.remove_prefix(kClosedPrefix.size());
  message.remove_suffix(kClosedSuffix.size());
  return unquote_stream(message, subject);
}

std::optional<nlohmann::json> detail_json(std::string_view driver_text) {
  constexpr std::string_view kDetail = "\nDETAIL:  ";
  const auto at = driver_text.find(kDetail);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view detail = driver_text.substr(at + kDetail.size());
  detail = detail.substr(0, detail.find('\n'));
  nlohmann::json parsed = nlohmann::json::parse(detail, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
  return parsed;
}

std::optional<Conflict> conflict_from_detail(std::string_view driver_text) {
  const auto detail = detail_json(driver_text);
  if (!detail || !detail->contains("stream") || !detail->contains("actual")) return std::nullopt;
  try {
    Conflict conflict;
    conflict.stream = detail->at("stream").get<std::string>();
    conflict.actual_version = detail->at("actual").get<std::int32_t>();
    if (detail->contains("expected") && !detail->at("expected").is_null())
      conflict.expected_version = detail->at("expected").get<std::int32_t>();
    return conflict;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

void throw_mapped(const DatabaseFailure& failure) {
  const std::string message = primary_message(failure.message);
  const std::string_view state = failure.sqlstate;
  if (failure.connection_lost)
    throw ConnectionError(failure.operation, failure.sqlstate, failure.operation + ": " + message);
  if (state == "40001") {
    if (std::optional<nlohmann::json> detail = detail_json(failure.message); detail && detail->contains("item")) {
      try {
        const nlohmann::json& after = detail->at("after");
        throw AppendConditionError(message, after.is_null() ? std::nullopt : std::optional(after.get<std::int64_t>()),
                                   detail->at("id").get<std::int64_t>(), detail->at("item").get<std::int32_t>());
      } catch (const nlohmann::json::exception&) {
        // not the DETAIL of act.append's condition: mapped below as any other
      }
    }
    // The structured DETAIL first (pg_act 0.2); the message for older servers.
    std::optional<Conflict> conflict = conflict_from_detail(failure.message);
    if (!conflict) conflict = parse_conflict(message, failure.subject);
    if (conflict) {
      throw ConcurrencyError(std::move(conflict->stream), conflict->expected_version, conflict->actual_version);
    }
  } else if (state.starts_with("22")) {
    throw ValidationError(message, failure.operation, {}, failure.sqlstate);
  } else if (state == "55000") {
    if (auto stream = parse_closed_stream(message, failure.subject)) throw StreamClosedError(std::move(*stream));
  }
  throw StoreError(failure.operation, failure.sqlstate, failure.operation + ": " + message + setup_hint(state, message));
}

}  // namespace act::db
