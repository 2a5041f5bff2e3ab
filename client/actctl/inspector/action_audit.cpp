#include "inspector/action_audit.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>

#include "act/event.hpp"

namespace actctl::inspector {

std::optional<std::string> ActionAudit::record(const nlohmann::json& action, const std::string& client) {
  nlohmann::json data = action;
  data["client"] = client;
  const auto now = std::chrono::time_point_cast<std::chrono::microseconds>(std::chrono::system_clock::now());
  fmt::print(stderr, "inspector action {} {}\n", act::to_iso8601(now), data.dump());
  if (stream_.empty()) return std::nullopt;
  try {
    act::Message event;
    event.name = kAuditEventName;
    event.data = data;
    store_.commit(stream_, {event});
    return std::nullopt;
  } catch (const std::exception& e) {
    const std::string reason = fmt::format("audit event not written to stream \"{}\": {}", stream_, e.what());
    fmt::print(stderr, "inspector: {}\n", reason);
    return reason;
  }
}

}  // namespace actctl::inspector
