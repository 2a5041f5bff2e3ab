#include "event_line.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string_view>

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

std::string Quoted(const char* text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

fmt::text_style Style(bool colours, fmt::text_style style) { return colours ? style : fmt::text_style{}; }

}  // namespace

std::string EventLine(const pqxx::row& event, const EventLineStyle& style) {
  const std::string data = Compact(event["data"].c_str());
  const std::string pii = event["pii"].is_null() ? "" : Compact(event["pii"].c_str());
  if (style.json) {
    std::string line = fmt::format(R"({{"id":{},"stream":{},"version":{},"name":{},"created":{},"data":{},"meta":{})",
                                   event["id"].c_str(), Quoted(event["stream"].c_str()), event["version"].c_str(),
                                   Quoted(event["name"].c_str()), Quoted(event["created"].c_str()), data,
                                   Compact(event["meta"].c_str()));
    if (style.pii) line += fmt::format(R"(,"pii":{})", pii.empty() ? "null" : pii);
    return line + "}";
  }
  auto payload = [&style](const std::string& json) { return Printable(style.full ? json : Cut(json, kPayloadBytes)); };
  std::string line = fmt::format(
      "{}  {}  {}  {}  {}  {}", event["id"].c_str(),
      fmt::styled(Printable(event["stream"].c_str()), Style(style.colours, fmt::fg(fmt::terminal_color::cyan))),
      event["version"].c_str(),
      fmt::styled(Printable(event["name"].c_str()), Style(style.colours, fmt::emphasis::bold)),
      fmt::styled(event["created"].c_str(), Style(style.colours, fmt::emphasis::faint)), payload(data));
  if (style.pii) line += fmt::format("  pii {}", pii.empty() ? "-" : payload(pii));
  return line;
}

}  // namespace actctl
