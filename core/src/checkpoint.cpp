#include "act/core/checkpoint.hpp"

#include <algorithm>

#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "act/core/text.hpp"

namespace act::core {

namespace {

void CheckLine(std::string_view line, const std::string& what) {
  if (line.empty()) throw ValidationError("checkpoint " + what + " is empty");
  if (line.find('\n') != std::string_view::npos)
    throw ValidationError("checkpoint " + what + " " + Quoted(line) + " holds a newline");
}

std::uint64_t ParseSize(std::string_view line) {
  const auto fault = [&](const char* why) {
    return ValidationError("checkpoint size line " + Quoted(line) + " " + why);
  };
  if (line.empty()) throw fault("is empty");
  if (!std::all_of(line.begin(), line.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw fault("is not a decimal number");
  if (line.size() > 1 && line[0] == '0') throw fault("has a leading zero");
  std::uint64_t size = 0;
  for (char c : line) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (size > (UINT64_MAX - digit) / 10) throw fault("is out of range");
    size = size * 10 + digit;
  }
  return size;
}

Hash ParseRoot(std::string_view line) {
  const auto bytes = Base64Decode(line);
  if (!bytes) throw ValidationError("checkpoint root line " + Quoted(line) + " is not canonical base64");
  Hash root{};
  if (bytes->size() != root.size())
    throw ValidationError("checkpoint root line " + Quoted(line) + " holds " + std::to_string(bytes->size()) +
                          " bytes, not 32");
  std::copy(bytes->begin(), bytes->end(), root.begin());
  return root;
}

}  // namespace

std::string FormatCheckpoint(const Checkpoint& checkpoint) {
  CheckLine(checkpoint.origin, "origin");
  std::string text = checkpoint.origin + "\n" + std::to_string(checkpoint.size) + "\n" +
                     Base64Encode(checkpoint.root) + "\n";
  for (const std::string& line : checkpoint.extensions) {
    CheckLine(line, "extension line");
    text += line;
    text += '\n';
  }
  return text;
}

Checkpoint ParseCheckpoint(std::string_view text) {
  if (text.empty()) throw ValidationError("checkpoint is empty");
  if (text.back() != '\n') throw ValidationError("checkpoint does not end in a newline");
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (lines.size() < 3)
    throw ValidationError("checkpoint has " + std::to_string(lines.size()) +
                          " lines, not at least 3 (origin, size, root)");
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].empty()) throw ValidationError("checkpoint line " + std::to_string(i + 1) + " is empty");
  Checkpoint checkpoint;
  checkpoint.origin = std::string(lines[0]);
  checkpoint.size = ParseSize(lines[1]);
  checkpoint.root = ParseRoot(lines[2]);
  for (std::size_t i = 3; i < lines.size(); ++i) checkpoint.extensions.emplace_back(lines[i]);
  return checkpoint;
}

}  // namespace act::core
