#pragma once
// An event as stored, its JSON members as the server's text: numbers exactly
// as written (12.50 stays 12.50, a large integer whole). For readers that
// show what is stored (actctl tail, an inspector) rather than compute with it;
// act::Committed is the parsed form.
#include <cstdint>
#include <optional>
#include <string>

#include "act/event.hpp"

namespace act {

struct StoredEvent {
  std::int64_t id = 0;
  std::string stream;
  std::int32_t version = 0;
  std::string name;
  std::string data;                // jsonb text
  std::string meta;                // jsonb text
  std::optional<std::string> pii;  // jsonb text; none when absent or the role may not read it
  Timestamp created{};
};

}  // namespace act
