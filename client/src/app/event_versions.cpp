#include "act/detail/event_versions.hpp"

#include <map>
#include <stdexcept>

namespace act::detail {

EventVersion event_version(std::string_view name) {
  const std::size_t mark = name.rfind("_v");
  if (mark == std::string_view::npos || mark == 0 || mark + 2 == name.size()) return {std::string(name), 1};
  const std::string_view digits = name.substr(mark + 2);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos || digits.size() > 9) return {std::string(name), 1};
  const auto number = static_cast<std::int32_t>(std::stol(std::string(digits)));
  // "Foo_v1" and "Foo_v0" name events of their own, not versions of Foo.
  if (number < 2) return {std::string(name), 1};
  return {std::string(name.substr(0, mark)), number};
}

std::string newest_name(const Upcasts& upcasts, std::string name) {
  // Each step leads to a higher version (checked at build): the chain ends.
  for (auto step = upcasts.find(name); step != upcasts.end(); step = upcasts.find(name)) name = step->second.to;
  return name;
}

namespace {

void check_upcasts(const StateModel& model) {
  for (const auto& [from, upcast] : model.upcasts) {
    const EventVersion older = event_version(from);
    const EventVersion newer = event_version(upcast.to);
    if (older.base != newer.base || newer.number <= older.number) {
      throw std::invalid_argument("upcast(): " + from + " -> " + upcast.to + " in state " + model.name +
                                  ": an upcaster leads to a later version of the same event (" + older.base + "_v" +
                                  std::to_string(older.number + 1) + ")");
    }
    if (model.reducers.contains(from)) {
      throw std::invalid_argument("state " + model.name + " reduces " + from + ", which its upcaster turns into " +
                                  upcast.to + " before any reducer runs: drop the reducer of " + from);
    }
  }
  // Every step leads up: the chains end.
  for (const auto& [from, upcast] : model.upcasts) {
    const std::string last = newest_name(model.upcasts, upcast.to);
    if (!model.reducers.contains(last)) {
      throw std::invalid_argument("upcast(): " + from + " leads to " + last + ", which state " + model.name +
                                  " does not declare (patch<E>(\"" + last + "\", reducer))");
    }
  }
}

void record_deprecated(StateModel& model) {
  // base -> version number -> name, over every name the state reads.
  std::map<std::string, std::map<std::int32_t, std::string>> groups;
  const auto add = [&](const std::string& name) {
    const EventVersion version = event_version(name);
    auto& versions = groups[version.base];
    if (const auto [taken, added] = versions.emplace(version.number, name); !added && taken->second != name) {
      throw std::invalid_argument("state " + model.name + ": " + taken->second + " and " + name + " are both version " +
                                  std::to_string(version.number) + " of " + version.base);
    }
  };
  for (const auto& [name, reducer] : model.reducers) add(name);
  for (const auto& [name, upcast] : model.upcasts) add(name);
  model.deprecated.clear();
  for (const auto& [base, versions] : groups) {
    const std::string& current = versions.rbegin()->second;
    for (const auto& [number, name] : versions)
      if (name != current) model.deprecated.emplace(name, current);
  }
}

}  // namespace

void settle_event_versions(StateModel& model) {
  check_upcasts(model);
  record_deprecated(model);
}

bool upcast(const Upcasts& upcasts, Committed& event) {
  bool changed = false;
  // Each step leads to a higher version (checked at build): the chain ends.
  for (auto step = upcasts.find(event.name); step != upcasts.end(); step = upcasts.find(event.name)) {
    event.data = step->second.convert(event.data);
    event.name = step->second.to;
    changed = true;
  }
  return changed;
}

}  // namespace act::detail
