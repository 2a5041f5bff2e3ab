#pragma once
// A request's query-string parameters read strictly: a value that cannot be
// used is a BadRequest naming the parameter and the fault (HTTP 400), never
// a default in its place. An empty value is the same as an absent one, so a
// form's blank field filters nothing.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "act/event.hpp"

namespace httplib {
struct Request;
}  // namespace httplib

namespace actctl::inspector {

class BadRequest : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::optional<std::string> TextParam(const httplib::Request& request, const std::string& name);
// Every non-empty value of a repeated parameter (?stream=a&stream=b).
std::vector<std::string> TextParams(const httplib::Request& request, const std::string& name);
// A positive event id.
std::optional<std::int64_t> IdParam(const httplib::Request& request, const std::string& name);
// A tree size or an entry position: 0 or more.
std::optional<std::int64_t> SizeParam(const httplib::Request& request, const std::string& name);
// 1 to `most`; absent: `fallback`.
std::int32_t LimitParam(const httplib::Request& request, const std::string& name, std::int32_t fallback,
                        std::int32_t most);
// "1", "true" or "on" (a checkbox); absent or "0"/"false": false.
bool FlagParam(const httplib::Request& request, const std::string& name);
// ISO 8601 with an offset, as act::parse_timestamp reads it.
std::optional<act::Timestamp> TimeParam(const httplib::Request& request, const std::string& name);

}  // namespace actctl::inspector
