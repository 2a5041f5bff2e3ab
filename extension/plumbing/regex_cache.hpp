#pragma once
// Subscription source patterns, compiled with Postgres's own regex engine
// (the semantics of `~`) once per backend and kept.
#include <string_view>

namespace act::pg {

// Throws ValidationError (2201B) when the pattern does not compile; `what`
// names the argument in the message.
void ValidatePattern(std::string_view pattern, std::string_view what);

bool PatternMatches(std::string_view pattern, std::string_view text);

}  // namespace act::pg
