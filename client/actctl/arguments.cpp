#include "arguments.hpp"

#include <fmt/format.h>

#include "act/core/encoding.hpp"
#include "command.hpp"

namespace actctl {

std::uint64_t ParseCount(std::string_view option, std::string_view text) {
  if (text.empty()) throw UsageError(fmt::format("{}: expected a non-negative integer, got nothing", option));
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      throw UsageError(fmt::format("{}: expected a non-negative integer, got \"{}\"", option, text));
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) throw UsageError(fmt::format("{}: {} is beyond 64 bits", option, text));
    value = value * 10 + digit;
  }
  return value;
}

act::core::Hash ParseHash(std::string_view option, std::string_view text) {
  if (const auto hash = act::core::HashFromHex(text)) return *hash;
  if (text.size() != 64)
    throw UsageError(fmt::format("{}: a hash is 64 hex digits, got {} characters", option, text.size()));
  throw UsageError(fmt::format("{}: \"{}\" is not hex", option, text));
}

act::core::merkle::Path ParsePath(std::string_view option, std::string_view text) {
  act::core::merkle::Path path;
  if (text.empty()) return path;
  std::size_t start = 0;
  for (std::size_t element = 1;; ++element) {
    const std::size_t comma = text.find(',', start);
    const std::string_view part = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    path.push_back(ParseHash(fmt::format("{} element {}", option, element), part));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return path;
}

}  // namespace actctl
