#pragma once
// A Logger that keeps what it was given, from any thread, for tests to look at.
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "act/act.hpp"

namespace act::test {

struct LogLine {
  LogLevel level = LogLevel::kInfo;
  std::string message;
  LogFields fields;

  std::string field(const std::string& key) const {
    const auto found = fields.find(key);
    return found == fields.end() ? std::string() : found->second;
  }
};

class LogCapture final : public Logger {
 public:
  void log(LogLevel level, std::string_view message, const LogFields& fields) override {
    const std::lock_guard lock(mutex_);
    lines_.push_back(LogLine{level, std::string(message), fields});
  }
  std::vector<LogLine> lines() const {
    const std::lock_guard lock(mutex_);
    return lines_;
  }
  // The first line whose message contains `text`.
  std::optional<LogLine> find(const std::string& text) const {
    const std::lock_guard lock(mutex_);
    for (const LogLine& line : lines_) {
      if (line.message.find(text) != std::string::npos) return line;
    }
    return std::nullopt;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<LogLine> lines_;
};

}  // namespace act::test
