// The default logger: one line per call on stderr.
#include <cstdio>

#include "act/observe.hpp"

namespace act {
namespace {

// A value with spaces, quotes or control characters is quoted, so a line
// stays one line and splits back into its fields.
void append_value(std::string& line, std::string_view value) {
  const bool plain = !value.empty() && value.find_first_of(" \"\\=\n\r\t") == std::string_view::npos;
  if (plain) {
    line += value;
    return;
  }
  line += '"';
  for (const char c : value) {
    if (c == '"' || c == '\\') {
      line += '\\';
      line += c;
    } else if (c == '\n') {
      line += "\\n";
    } else if (c == '\r' || c == '\t') {
      line += ' ';
    } else {
      line += c;
    }
  }
  line += '"';
}

class StderrLogger final : public Logger {
 public:
  explicit StderrLogger(LogLevel threshold) : threshold_(threshold) {}

  void log(LogLevel level, std::string_view message, const LogFields& fields) override {
    if (level < threshold_) return;
    std::string line = "pg_act: ";
    line += to_string(level);
    line += ": ";
    line += message;
    for (const auto& [key, value] : fields) {
      line += ' ';
      line += key;
      line += '=';
      append_value(line, value);
    }
    line += '\n';
    // One write per line: lines of concurrent workers do not interleave.
    std::fputs(line.c_str(), stderr);
  }

 private:
  const LogLevel threshold_;
};

}  // namespace

std::string_view to_string(LogLevel level) noexcept {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "unknown";
}

std::shared_ptr<Logger> stderr_logger(LogLevel threshold) { return std::make_shared<StderrLogger>(threshold); }

}  // namespace act
