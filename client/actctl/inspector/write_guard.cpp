#include "inspector/write_guard.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <array>
#include <random>

namespace actctl::inspector {

namespace {

// 32 bytes from the system's entropy source (std::random_device reads
// getrandom on Linux), as hex.
std::string RandomToken() {
  std::random_device device;
  std::string token;
  for (int i = 0; i < 8; ++i) token += fmt::format("{:08x}", device());
  return token;
}

// Compares without stopping at the first difference, so that the time a
// refusal takes says nothing about how much of a guess was right.
bool SameSecret(const std::string& given, const std::string& secret) {
  if (given.size() != secret.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < secret.size(); ++i) difference |= static_cast<unsigned char>(given[i] ^ secret[i]);
  return difference == 0;
}

bool IsLoopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "[::1]" || host == "::1";
}

}  // namespace

WriteGuard::WriteGuard(bool write) : write_(write), token_(write ? RandomToken() : "") {}

void WriteGuard::bound(const std::string& host, int port) {
  const std::string bracketed = host.find(':') != std::string::npos && host.front() != '[' ? "[" + host + "]" : host;
  hosts_.insert(fmt::format("{}:{}", bracketed, port));
  if (IsLoopback(host))
    for (const char* name : {"127.0.0.1", "localhost", "[::1]"}) hosts_.insert(fmt::format("{}:{}", name, port));
}

std::optional<std::string> WriteGuard::host_refusal(const httplib::Request& request) const {
  // Bound to every address (0.0.0.0), the server cannot know its names: the operator chose to expose it.
  if (hosts_.empty() || hosts_.begin()->starts_with("0.0.0.0:") || hosts_.begin()->starts_with("[::]:"))
    return std::nullopt;
  const std::string host = request.get_header_value("Host");
  if (hosts_.contains(host)) return std::nullopt;
  return fmt::format("Host \"{}\" is not an address this inspector listens on", host);
}

std::optional<std::string> WriteGuard::write_refusal(const httplib::Request& request) const {
  if (!write_) return "the inspector is read-only: start actctl serve with --write to allow actions";
  const std::string host = request.get_header_value("Host");
  const std::string origin = "http://" + host;
  if (request.has_header("Origin")) {
    if (request.get_header_value("Origin") != origin)
      return fmt::format("Origin \"{}\" is not this inspector's ({})", request.get_header_value("Origin"), origin);
  } else if (request.has_header("Referer")) {
    if (!request.get_header_value("Referer").starts_with(origin + "/"))
      return fmt::format("Referer \"{}\" is not a page of this inspector", request.get_header_value("Referer"));
  } else {
    return "neither Origin nor Referer: the request does not say which page sent it";
  }
  if (!request.get_header_value("Content-Type").starts_with("application/json"))
    return "an action's body is JSON (Content-Type: application/json)";
  if (!SameSecret(request.get_header_value(kTokenHeader), token_))
    return fmt::format("the {} header does not carry this inspector's token", kTokenHeader);
  return std::nullopt;
}

}  // namespace actctl::inspector
