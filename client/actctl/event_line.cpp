#include "event_line.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string_view>

#include "pg_text.hpp"
#include "printable.hpp"

namespace actctl {

namespace {

// jsonb's text without the blanks it puts after ':' and ','. Not through
// nlohmann::json: it would turn numbers into doubles (12.50 into 12.5, large
// integers into approximations), and an auditor must see what is stored.
// Outside strings, jsonb's output has no other blanks.
std::string Compact(std::string_view jsonb) {
  std::string out;
  out.reserve(jsonb.size());
  bool in_string = false, escaped = false;
  for (const char c : jsonb) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == ' ') {
      continue;
    }
    out += c;
  }
  return out;
}

std::string Quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

fmt::text_style Style(bool colours, fmt::text_style style) { return colours ? style : fmt::text_style{}; }

}  // namespace

std::string EventLine(const act::StoredEvent& event, const EventLineStyle& style) {
  const std::string data = Compact(event.data);
  const std::string pii = event.pii ? Compact(*event.pii) : "";
  const std::string created = TimeJsonText(event.created);
  if (style.json) {
    std::string line = fmt::format(R"({{"id":{},"stream":{},"version":{},"name":{},"created":{},"data":{},"meta":{})",
                                   event.id, Quoted(event.stream), event.version, Quoted(event.name), Quoted(created),
                                   data, Compact(event.meta));
    if (style.pii) line += fmt::format(R"(,"pii":{})", pii.empty() ? "null" : pii);
    return line + "}";
  }
  auto payload = [&style](const std::string& json) { return Printable(style.full ? json : Cut(json, kPayloadBytes)); };
  std::string line =
      fmt::format("{}  {}  {}  {}  {}  {}", event.id,
                  fmt::styled(Printable(event.stream), Style(style.colours, fmt::fg(fmt::terminal_color::cyan))),
                  event.version, fmt::styled(Printable(event.name), Style(style.colours, fmt::emphasis::bold)),
                  fmt::styled(created, Style(style.colours, fmt::emphasis::faint)), payload(data));
  if (style.pii) line += fmt::format("  pii {}", pii.empty() ? "-" : payload(pii));
  return line;
}

}  // namespace actctl
