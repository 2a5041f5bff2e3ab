#pragma once
// The one place where database failures become act errors.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace act::db {

struct DatabaseFailure {
  std::string operation;  // "act.commit", "connect", ...
  std::string sqlstate;   // empty when the server sent none
  std::string message;    // the driver's text ("ERROR:  ...\nCONTEXT: ...")
  std::string subject;    // the stream the call was about, if one: the server cuts long names in messages
  bool connection_lost = false;  // the connection could not be made, or is gone: a ConnectionError
};

// A lost connection → ConnectionError; 40001 with the commit-conflict message → ConcurrencyError; 22xxx →
// ValidationError; 55000 → StreamClosedError; anything else → StoreError.
[[noreturn]] void throw_mapped(const DatabaseFailure& failure);

// What to do when a call fails because pg_act is missing from the database
// or older than the client (" (… run CREATE EXTENSION pg_act;)"), else "".
std::string setup_hint(std::string_view sqlstate, std::string_view message);

// True for failures after which the connection cannot be used again.
bool is_connection_loss(std::string_view sqlstate);

// The server's primary message: without the "ERROR:  " prefix and the
// DETAIL / HINT / CONTEXT lines.
std::string primary_message(std::string_view driver_text);

struct Conflict {
  std::string stream;
  std::optional<std::int32_t> expected_version;  // empty for "any"
  std::int32_t actual_version = 0;
};
// The DETAIL line of a driver's text, when it is a JSON object (pg_act's
// structured detail).
std::optional<nlohmann::json> detail_json(std::string_view driver_text);
// {"stream", "expected", "actual"} from a conflict's DETAIL.
std::optional<Conflict> conflict_from_detail(std::string_view driver_text);
// Parses `concurrency conflict on stream "<s>": expected version <e|any>, actual version <a>`.
// A name the server cut (`"<start>..." (<n> bytes)`) is replaced by subject.
std::optional<Conflict> parse_conflict(std::string_view message, std::string_view subject = {});
// Parses `stream "<s>" is closed`, with the same rule for cut names.
std::optional<std::string> parse_closed_stream(std::string_view message, std::string_view subject = {});

}  // namespace act::db
