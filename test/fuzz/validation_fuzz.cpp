// Input rules and error-message quoting (validation.cpp, text.cpp): a name or
// event is accepted exactly when the documented rules allow it, and every
// message stays short and valid UTF-8 whatever it quotes.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstring>
#include <limits>

#include "act/core/errors.hpp"
#include "act/core/text.hpp"
#include "act/core/validation.hpp"
#include "fuzz_support.hpp"

namespace {

using act::fuzz::Check;
namespace core = act::core;

// Quoted cuts names at 200 bytes: no message may grow with its input.
constexpr std::size_t kMaxMessageBytes = 600;

template <typename Call>
bool Refused(Call call, bool utf8_input) {
  try {
    call();
  } catch (const core::ValidationError& error) {
    const std::string_view message = error.what();
    Check(message.size() <= kMaxMessageBytes, "messages stay short");
    if (utf8_input) Check(act::fuzz::ValidUtf8(message), "messages about UTF-8 input are UTF-8");
    Check(std::strcmp(error.code(), core::sqlstate::kInvalidParameterValue) == 0, "bad input is 22023");
    return true;
  }
  return false;
}

core::JsonKind Kind(FuzzedDataProvider& provider) {
  const core::JsonKind kinds[] = {core::JsonKind::kAbsent, core::JsonKind::kNull,   core::JsonKind::kObject,
                                  core::JsonKind::kArray,  core::JsonKind::kString, core::JsonKind::kNumber,
                                  core::JsonKind::kBool};
  return provider.PickValueInArray(kinds);
}

void CheckQuoted(const std::string& text, std::size_t max_bytes, bool utf8) {
  const std::string quoted = core::Quoted(text, max_bytes);
  if (text.size() <= max_bytes) {
    Check(quoted == "\"" + text + "\"", "short text is quoted whole");
    return;
  }
  Check(quoted.size() <= max_bytes + 40, "long text is cut");
  const std::size_t end = quoted.find("...\" (");
  Check(end != std::string::npos && end >= 1, "a cut text says so");
  Check(text.compare(0, end - 1, quoted, 1, end - 1) == 0, "the cut keeps a prefix");
  if (utf8) Check(act::fuzz::ValidUtf8(quoted), "the cut never splits a character");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider provider(data, size);
  const std::string stream = provider.ConsumeRandomLengthString(2 * core::kMaxStreamBytes);
  const bool stream_utf8 = act::fuzz::ValidUtf8(stream);
  CheckQuoted(stream, provider.ConsumeIntegralInRange<std::size_t>(0, 300), stream_utf8);

  Check(Refused([&] { core::ValidateStreamName(stream); }, stream_utf8) ==
            (stream.empty() || stream.size() > core::kMaxStreamBytes),
        "a stream name is 1 to 1000 bytes");

  core::EventShape shape;
  shape.element = Kind(provider);
  shape.name_kind = Kind(provider);
  shape.data_kind = Kind(provider);
  shape.pii_kind = Kind(provider);
  const std::string name = provider.ConsumeRandomLengthString(2 * core::kMaxEventNameBytes);
  shape.name = name;
  const bool name_utf8 = act::fuzz::ValidUtf8(name);
  const bool acceptable =
      shape.element == core::JsonKind::kObject && shape.name_kind == core::JsonKind::kString && !name.empty() &&
      name.size() <= core::kMaxEventNameBytes && name != core::kTombstoneEvent &&
      (shape.data_kind == core::JsonKind::kAbsent || shape.data_kind == core::JsonKind::kObject) &&
      (shape.pii_kind == core::JsonKind::kAbsent || shape.pii_kind == core::JsonKind::kNull ||
       shape.pii_kind == core::JsonKind::kObject);
  const auto index = provider.ConsumeIntegral<std::size_t>();
  Check(Refused([&] { core::ValidateEvent(stream, index, shape); }, stream_utf8 && name_utf8) == !acceptable,
        "an event is accepted exactly when its shape is valid");

  const auto expected = provider.ConsumeIntegral<long long>();
  Check(Refused([&] { core::ValidateExpectedVersion(stream, expected); }, stream_utf8) ==
            (expected < -1 || expected > std::numeric_limits<std::int32_t>::max()),
        "expected_version is -1 to int4 max");
  const core::JsonKind meta = Kind(provider);
  Check(Refused([&] { core::ValidateMeta(stream, meta); }, stream_utf8) == (meta != core::JsonKind::kObject),
        "meta is an object");
  return 0;
}
