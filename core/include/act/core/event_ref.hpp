#pragma once
#include <cstdint>
#include <string_view>

namespace act::core {

// A committed event as marking and notification see it.
struct EventRef {
  std::int64_t id;
  std::string_view name;
};

}  // namespace act::core
