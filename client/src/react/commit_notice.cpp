#include "react/commit_notice.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace act::react {

std::optional<CommitNotice> read_commit_notice(std::string_view payload) {
  const nlohmann::json notice = nlohmann::json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (!notice.is_object()) return std::nullopt;
  const auto stream = notice.find("stream");
  if (stream == notice.end() || !stream->is_string()) return std::nullopt;
  std::int64_t last = 0;
  if (const auto brief = notice.find("last"); brief != notice.end() && brief->is_number_integer()) {
    last = brief->get<std::int64_t>();
  } else if (const auto events = notice.find("events"); events != notice.end() && events->is_array()) {
    for (const auto& event : *events) {
      if (const auto id = event.find("id"); id != event.end() && id->is_number_integer())
        last = std::max(last, id->get<std::int64_t>());
    }
  }
  if (last <= 0) return std::nullopt;
  return CommitNotice{stream->get<std::string>(), last};
}

}  // namespace act::react
