#include "store/audit_text.hpp"

namespace act::audit_text {

std::string span(std::chrono::microseconds duration) {
  const long long total = std::chrono::duration_cast<std::chrono::seconds>(duration).count();
  const long long hours = total / 3600, minutes = total % 3600 / 60, seconds = total % 60;
  if (hours > 0) return std::to_string(hours) + "h" + std::to_string(minutes) + "m";
  if (minutes > 0) return std::to_string(minutes) + "m" + std::to_string(seconds) + "s";
  return std::to_string(seconds) + "s";
}

std::string shell_quoted(std::string_view text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string park_command(std::string_view stream) {
  return "actctl defer --stream " + shell_quoted(stream) + " --until 9999-12-31 --yes";
}

}  // namespace act::audit_text
