// The NOTIFY act_commit payload: always under Postgres's limit, always JSON,
// the full form whenever it fits, the brief form otherwise.
#include <fuzzer/FuzzedDataProvider.h>

#include <limits>

#include "act/core/notify_payload.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using act::fuzz::Check;
  FuzzedDataProvider provider(data, size);
  const std::string stream = provider.ConsumeRandomLengthString(2000);
  std::vector<std::string> names;
  std::vector<act::core::EventRef> events;
  const std::size_t count = provider.ConsumeIntegralInRange<std::size_t>(0, 400);
  names.reserve(count);
  // Ids as a commit takes them: ascending, positive, up to the top of bigint.
  std::int64_t id = provider.ConsumeIntegralInRange<std::int64_t>(1, std::numeric_limits<std::int64_t>::max() - 400000);
  for (std::size_t i = 0; i < count; ++i) {
    names.push_back(provider.ConsumeRandomLengthString(300));
    events.push_back({id, names.back()});
    id += provider.ConsumeIntegralInRange<std::int64_t>(1, 1000);
  }
  const std::string payload = act::core::CommitNotifyPayload(stream, events);
  Check(payload.size() <= act::core::kMaxNotifyPayloadBytes, "the payload fits a NOTIFY");
  if (payload.empty()) return 0;
  const nlohmann::json parsed = nlohmann::json::parse(payload, nullptr, false);
  Check(!parsed.is_discarded() && parsed.is_object(), "the payload is a JSON object");
  Check(act::fuzz::ValidUtf8(payload), "the payload is UTF-8 whatever the names hold");
  const bool utf8 = act::fuzz::ValidUtf8(stream);
  if (utf8) Check(parsed.at("stream") == stream, "the payload names the stream");
  if (parsed.contains("events")) {
    Check(parsed["events"].size() == events.size(), "the full form lists every event");
    for (std::size_t i = 0; i < events.size(); ++i) {
      Check(parsed["events"][i].at("id") == events[i].id, "ids in order");
      if (act::fuzz::ValidUtf8(names[i])) Check(parsed["events"][i].at("name") == names[i], "names in order");
    }
  } else {
    Check(parsed.at("last") == (events.empty() ? 0 : events.back().id), "the brief form gives the last id");
    // The brief form only when the full one could not fit: escaping makes a
    // byte at most 6 ("\u001f"), an event adds at most 48 bytes of syntax.
    std::size_t most = 6 * stream.size() + 40;
    for (const std::string& name : names) most += 6 * name.size() + 48;
    Check(most > act::core::kMaxNotifyPayloadBytes, "the brief form is used only when the full one may not fit");
  }
  return 0;
}
