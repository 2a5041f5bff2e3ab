#include "request_params.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include "act/errors.hpp"

namespace actctl::inspector {

std::optional<std::string> TextParam(const httplib::Request& request, const std::string& name) {
  if (request.get_param_value_count(name) > 1)
    throw BadRequest(
        fmt::format("parameter {} is given {} times; it takes one value", name, request.get_param_value_count(name)));
  std::string value = request.get_param_value(name);
  if (value.empty()) return std::nullopt;
  return value;
}

std::vector<std::string> TextParams(const httplib::Request& request, const std::string& name) {
  std::vector<std::string> values;
  for (std::size_t i = 0; i < request.get_param_value_count(name); ++i) {
    std::string value = request.get_param_value(name, i);
    if (!value.empty()) values.push_back(std::move(value));
  }
  return values;
}

namespace {

std::optional<std::int64_t> Digits(const httplib::Request& request, const std::string& name, const char* what) {
  const std::optional<std::string> text = TextParam(request, name);
  if (!text) return std::nullopt;
  if (text->size() > 18 || text->find_first_not_of("0123456789") != std::string::npos)
    throw BadRequest(fmt::format("parameter {}: \"{}\" is not {}", name, *text, what));
  return std::stoll(*text);
}

}  // namespace

std::optional<std::int64_t> IdParam(const httplib::Request& request, const std::string& name) {
  const std::optional<std::int64_t> id = Digits(request, name, "an event id (a positive integer)");
  if (id && *id < 1) throw BadRequest(fmt::format("parameter {}: an event id is positive, not {}", name, *id));
  return id;
}

std::optional<std::int64_t> SizeParam(const httplib::Request& request, const std::string& name) {
  return Digits(request, name, "a tree size (0 or more)");
}

std::int32_t LimitParam(const httplib::Request& request, const std::string& name, std::int32_t fallback,
                        std::int32_t most) {
  const std::string what = fmt::format("a count from 1 to {}", most);
  const std::optional<std::int64_t> limit = Digits(request, name, what.c_str());
  if (!limit) return fallback;
  if (*limit < 1 || *limit > most) throw BadRequest(fmt::format("parameter {}: {} is not {}", name, *limit, what));
  return static_cast<std::int32_t>(*limit);
}

bool FlagParam(const httplib::Request& request, const std::string& name) {
  const std::optional<std::string> text = TextParam(request, name);
  if (!text || *text == "0" || *text == "false") return false;
  if (*text == "1" || *text == "true" || *text == "on") return true;
  throw BadRequest(fmt::format("parameter {}: \"{}\" is not 1, true, on, 0 or false", name, *text));
}

std::optional<act::Timestamp> TimeParam(const httplib::Request& request, const std::string& name) {
  const std::optional<std::string> text = TextParam(request, name);
  if (!text) return std::nullopt;
  try {
    return act::parse_timestamp(*text);
  } catch (const act::ValidationError&) {
    throw BadRequest(fmt::format("parameter {}: \"{}\" is not a time in ISO 8601 with an offset (2026-01-31T12:00:00Z)",
                                 name, *text));
  }
}

}  // namespace actctl::inspector
