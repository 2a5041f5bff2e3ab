// C2SP checkpoint bodies and base64: what parses has exactly one spelling, so
// formatting the parsed value gives the input back; nothing else escapes but
// ValidationError.
#include <string>
#include <string_view>

#include "act/core/checkpoint.hpp"
#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using act::fuzz::Check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (const auto bytes = act::core::Base64Decode(text))
    Check(act::core::Base64Encode(bytes->data(), bytes->size()) == text, "canonical base64 round-trips");
  try {
    const act::core::Checkpoint checkpoint = act::core::ParseCheckpoint(text);
    Check(act::core::FormatCheckpoint(checkpoint) == text, "a parsed checkpoint formats back to its text");
  } catch (const act::core::ValidationError&) {
  }
  return 0;
}
