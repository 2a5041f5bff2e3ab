#pragma once
// Personal data in events: the fields a state marks sensitive travel in the
// event's pii sidecar (a column of its own, readable only by act_pii_reader
// and wiped by act.forget_pii), and every reader gets the view it may see.
#include <map>
#include <string>
#include <vector>

#include "act/event.hpp"

namespace act::detail {

// Sensitive top-level fields by event name.
using SensitiveFields = std::map<std::string, std::vector<std::string>, std::less<>>;

inline constexpr std::string_view kRedactedValue = "[REDACTED]";
inline constexpr std::string_view kShreddedValue = "[SHREDDED]";

enum class Disclosure {
  kPlaintext,  // the sidecar's values back in data
  kRedacted,   // each sensitive field "[REDACTED]"
  kStripped,   // the sensitive fields removed
};

// The event as a reader sees it; the sidecar is dropped from every view. A
// field whose sidecar is gone (forgotten, or unreadable to this role) reads
// "[SHREDDED]" in the plaintext and redacted views.
Committed view_of(const Committed& event, const SensitiveFields& sensitive, Disclosure how);

// Moves the message's sensitive fields from data into its pii sidecar; an
// event with sensitive fields always gets one, empty when none was given.
Message split_personal_data(Message message, const SensitiveFields& sensitive);

}  // namespace act::detail
