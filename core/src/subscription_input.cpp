#include "act/core/subscription_input.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "act/core/claim_plan.hpp"
#include "act/core/errors.hpp"
#include "act/core/json_fields.hpp"
#include "act/core/text.hpp"
#include "act/core/validation.hpp"

namespace act::core {

namespace {

constexpr std::int64_t kMinId = -1;
constexpr std::int64_t kMaxBigint = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMinInt = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kMaxInt = std::numeric_limits<std::int32_t>::max();

std::string Item(const char* what, std::size_t index) { return std::string(what) + "[" + std::to_string(index) + "]"; }

SubscriptionEntry ReadSubscription(const nlohmann::json& item, std::size_t index) {
  const JsonFields fields(item, Item("subscriptions", index),
                          {"stream", "source", "names", "priority", "lane", "correlated_at"});
  SubscriptionEntry entry;
  entry.stream = fields.RequiredString("stream");
  ValidateStreamName(entry.stream, fields.PathOf("stream"));
  entry.source = fields.OptionalString("source");
  if (entry.source) ValidateStreamName(*entry.source, fields.PathOf("source"));
  entry.names = fields.OptionalStrings("names");
  if (entry.names && entry.names->empty())
    throw ValidationError(fields.PathOf("names") + " must not be empty (omit it or use null for every event name)");
  entry.priority = static_cast<std::int32_t>(fields.OptionalInt("priority", kMinInt, kMaxInt).value_or(0));
  if (std::optional<std::string> lane = fields.OptionalString("lane")) {
    if (lane->empty()) throw ValidationError(fields.PathOf("lane") + " must not be empty");
    ValidateIndexedText(*lane, fields.PathOf("lane"), kMaxLaneBytes);
    entry.lane = *lane;
  }
  entry.mark = fields.OptionalInt("correlated_at", kMinId, kMaxBigint);
  return entry;
}

}  // namespace

std::vector<SubscriptionEntry> ParseSubscriptions(const nlohmann::json& input) {
  RequireArray(input, "subscriptions");
  std::vector<SubscriptionEntry> entries;
  std::unordered_map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < input.size(); ++i) {
    SubscriptionEntry entry = ReadSubscription(input[i], i);
    auto [found, inserted] = position.try_emplace(entry.stream, entries.size());
    if (inserted) {
      entries.push_back(std::move(entry));
      continue;
    }
    SubscriptionEntry& merged = entries[found->second];
    merged.priority = std::max(merged.priority, entry.priority);
    merged.lane = entry.lane;
    if (entry.mark && (!merged.mark || *merged.mark < *entry.mark)) merged.mark = entry.mark;
  }
  return entries;
}

std::vector<std::string> ParseAddedNames(const nlohmann::json& input) {
  RequireArray(input, "names");
  if (input.empty()) throw ValidationError("names must not be empty: give the event names to add");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const std::string what = Item("names", i);
    if (!input[i].is_string()) throw ValidationError(what + " must be a string, not " + JsonTypeName(input[i]));
    std::string name = input[i].get<std::string>();
    if (name.empty()) throw ValidationError(what + " must not be empty");
    if (name.size() > kMaxEventNameBytes)
      throw ValidationError(what + " is longer than " + std::to_string(kMaxEventNameBytes) + " bytes");
    if (name == kSnapshotEvent || name == kTombstoneEvent)
      throw ValidationError(what + " is " + Quoted(name) + ": snapshots and tombstones are never work");
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  return names;
}

std::optional<CorrelatorLease> ParseCorrelator(const nlohmann::json& input) {
  if (input.is_null()) return std::nullopt;
  const JsonFields fields(input, "correlator", {"key", "by", "millis"});
  CorrelatorLease lease;
  lease.key = fields.RequiredString("key");
  ValidateIndexedText(lease.key, fields.PathOf("key"), kMaxCorrelatorKeyBytes);
  lease.by = fields.RequiredString("by");
  // At most a claim's lease: a correlator that died holds the scan no longer (0 or less releases it).
  lease.millis = fields.RequiredInt("millis", std::numeric_limits<std::int32_t>::min(), kMaxLeaseMillis);
  return lease;
}

std::vector<LeaseEntry> ParseLeases(const nlohmann::json& input, LeaseUse use, const char* what) {
  RequireArray(input, what);
  std::vector<LeaseEntry> entries;
  std::unordered_map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < input.size(); ++i) {
    // A claim row passed back as it is carries source and lane too.
    const JsonFields fields =
        use == LeaseUse::kAck
            ? JsonFields(input[i], Item(what, i), {"stream", "by", "at", "lagging", "retry", "due", "source", "lane"})
            : JsonFields(input[i], Item(what, i),
                         {"stream", "by", "error", "lagging", "source", "at", "retry", "lane"});
    LeaseEntry entry;
    entry.stream = fields.RequiredString("stream");
    ValidateStreamName(entry.stream, fields.PathOf("stream"));
    entry.by = fields.RequiredString("by");
    entry.lagging = fields.OptionalBool("lagging").value_or(false);
    if (use == LeaseUse::kAck) {
      entry.at = fields.RequiredInt("at", kMinId, kMaxBigint);
      if (std::optional<std::int64_t> retry = fields.OptionalInt("retry", -1, kMaxInt))
        entry.retry = static_cast<std::int32_t>(*retry);
      if (const nlohmann::json* due = fields.Find("due")) {
        if (due->is_string())
          entry.due_text = due->get<std::string>();
        else
          entry.due_epoch_ms = fields.OptionalInt("due", 0, kMaxBigint / 1000);
      }
    } else {
      entry.error = fields.OptionalString("error").value_or("");
      if (!fields.Find("error")) throw ValidationError(fields.PathOf("error") + " is required");
    }
    auto [found, inserted] = position.try_emplace(entry.stream, entries.size());
    if (inserted)
      entries.push_back(std::move(entry));
    else
      entries[found->second] = std::move(entry);
  }
  return entries;
}

bool IsPattern(std::string_view source) {
  return source.find_first_of("^$.*+?()[]{}|\\") != std::string_view::npos;
}

std::optional<std::int64_t> WorkMark(const std::optional<std::vector<std::string>>& names,
                                     const std::vector<EventRef>& events) {
  std::optional<std::int64_t> mark;
  for (const EventRef& event : events) {
    if (event.name == kSnapshotEvent || event.name == kTombstoneEvent) continue;
    if (names && std::find(names->begin(), names->end(), event.name) == names->end()) continue;
    if (!mark || *mark < event.id) mark = event.id;
  }
  return mark;
}

}  // namespace act::core
