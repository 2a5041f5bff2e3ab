// The jsonb inputs of act.subscribe, act.ack and act.block: parsed entries
// obey the documented rules (limits, merges, last entry wins) or the input is
// refused with ValidationError.
#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "act/core/errors.hpp"
#include "act/core/subscription_input.hpp"
#include "act/core/validation.hpp"
#include "fuzz_support.hpp"

namespace {

using act::fuzz::Check;
using nlohmann::json;
namespace core = act::core;

bool ValidName(const std::string& name) { return !name.empty() && name.size() <= core::kMaxStreamBytes; }

void CheckWorkMark(const core::SubscriptionEntry& entry) {
  // Events named after the entry's names plus the reserved ones, ids ascending.
  std::vector<std::string> names = entry.names.value_or(std::vector<std::string>{"x"});
  names.emplace_back(core::kSnapshotEvent);
  names.emplace_back(core::kTombstoneEvent);
  std::vector<core::EventRef> events;
  for (std::size_t i = 0; i < names.size(); ++i) events.push_back({static_cast<std::int64_t>(i + 1), names[i]});
  const std::optional<std::int64_t> mark = core::WorkMark(entry.names, events);
  std::optional<std::int64_t> expected;
  for (const core::EventRef& event : events) {
    if (event.name == core::kSnapshotEvent || event.name == core::kTombstoneEvent) continue;
    if (entry.names && std::find(entry.names->begin(), entry.names->end(), event.name) == entry.names->end()) continue;
    expected = event.id;
  }
  Check(mark == expected, "the work mark is the highest listed event that is not a snapshot or tombstone");
}

void Subscriptions(const json& input) {
  const std::vector<core::SubscriptionEntry> entries = core::ParseSubscriptions(input);
  Check(input.is_array(), "subscriptions are an array");
  // Recompute the merge from the input: the first entry of a stream fixes
  // source and names, priority and mark only rise, the last lane wins.
  std::map<std::string, const json*> first;
  std::map<std::string, std::int64_t> priority;
  std::map<std::string, std::string> lane;
  for (const json& item : input) {
    const std::string stream = item.at("stream").get<std::string>();
    first.try_emplace(stream, &item);
    const std::int64_t p = item.contains("priority") && !item["priority"].is_null() ? item["priority"].get<std::int64_t>() : 0;
    priority[stream] = priority.count(stream) ? std::max(priority[stream], p) : p;
    lane[stream] = item.contains("lane") && !item["lane"].is_null() ? item["lane"].get<std::string>() : "default";
  }
  Check(entries.size() == first.size(), "one entry per distinct stream");
  std::set<std::string> seen;
  for (const core::SubscriptionEntry& entry : entries) {
    Check(seen.insert(entry.stream).second, "streams are unique");
    Check(ValidName(entry.stream), "stream names are 1 to 1000 bytes");
    if (entry.source) Check(ValidName(*entry.source), "sources are 1 to 1000 bytes");
    if (entry.names) Check(!entry.names->empty(), "a names list is never empty");
    Check(!entry.lane.empty() && entry.lane == lane[entry.stream], "the last lane wins");
    Check(entry.priority == priority[entry.stream], "priority is the highest given");
    const json& origin = *first[entry.stream];
    const bool has_source = origin.contains("source") && !origin["source"].is_null();
    Check(entry.source.has_value() == has_source, "the first entry fixes the source");
    if (entry.mark) Check(*entry.mark >= -1, "marks are -1 or more");
    CheckWorkMark(entry);
  }
}

void Correlator(const json& input) {
  const std::optional<core::CorrelatorLease> lease = core::ParseCorrelator(input);
  Check(lease.has_value() == !input.is_null(), "null is no correlator");
  if (!lease) return;
  Check(!lease->key.empty() && !lease->by.empty(), "key and by are not empty");
  Check(lease->millis >= std::numeric_limits<std::int32_t>::min() && lease->millis <= std::numeric_limits<std::int32_t>::max(),
        "millis fits an int");
}

void Leases(const json& input, core::LeaseUse use) {
  const std::vector<core::LeaseEntry> entries = core::ParseLeases(input, use);
  Check(input.is_array(), "leases are an array");
  std::map<std::string, const json*> last;
  for (const json& item : input) last[item.at("stream").get<std::string>()] = &item;
  Check(entries.size() == last.size(), "one entry per distinct stream");
  std::set<std::string> seen;
  for (const core::LeaseEntry& entry : entries) {
    Check(seen.insert(entry.stream).second, "streams are unique");
    Check(ValidName(entry.stream), "stream names are 1 to 1000 bytes");
    Check(entry.by == last[entry.stream]->at("by").get<std::string>(), "a later entry replaces an earlier one");
    Check(!entry.by.empty(), "by is not empty");
    if (use == core::LeaseUse::kAck) {
      Check(entry.at >= -1, "watermarks are -1 or more");
      if (entry.retry) Check(*entry.retry >= -1, "retry is -1 or more");
      Check(!(entry.due_epoch_ms && entry.due_text), "due is a number or a string, not both");
      if (entry.due_epoch_ms)
        Check(*entry.due_epoch_ms >= 0 && *entry.due_epoch_ms <= std::numeric_limits<std::int64_t>::max() / 1000,
              "due in epoch milliseconds converts to microseconds without overflow");
    } else {
      Check(!entry.HasDue(), "block takes no due");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::optional<json> input = act::fuzz::ParseJson(data + 1, size - 1);
  if (!input) return 0;
  try {
    switch (data[0] % 4) {
      case 0: Subscriptions(*input); break;
      case 1: Correlator(*input); break;
      case 2: Leases(*input, core::LeaseUse::kAck); break;
      default: Leases(*input, core::LeaseUse::kBlock); break;
    }
  } catch (const core::ValidationError&) {
  }
  return 0;
}
