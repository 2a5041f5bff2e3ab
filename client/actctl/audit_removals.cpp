// Removal records for actctl log audit (audit_removals.hpp). A record is an
// event of stream "__truncations__", so it is hashed, chained and sealed like
// any other; the positions it removed live in a side table the owner could
// edit, which is why each record's data carries their count and a digest of
// (position, event id, entry) over them: an edited list no longer matches the
// hashed record.
#include "audit_removals.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "act/core/encoding.hpp"
#include "act/core/event_hash.hpp"
#include "audit.hpp"
#include "audit_rows.hpp"
#include "stored_hash.hpp"

namespace actctl {

namespace {

namespace core = act::core;

constexpr const char* kRecordStream = "__truncations__";
constexpr const char* kRecordName = "__tombstone__";
constexpr std::int32_t kRecordPage = 5000;

struct Range {
  std::int64_t begin = 0;  // [begin, end) of positions
  std::int64_t end = 0;
  std::size_t record = 0;  // index into State::records
};

struct Record {
  std::int64_t id = 0;                   // the record event's id
  std::optional<std::int64_t> position;  // its entry; none until sealed
  std::vector<Range> ranges;
  bool checked = false;
  bool in_tree = false;
};

// The record's data: {"removed", "digest", "first_position", "last_position"}
// and, for the record an upgrade wrote, "before_upgrade": true.
struct RecordData {
  std::int64_t removed = 0;
  std::string digest;
  std::int64_t first = 0;
  std::int64_t last = 0;
};

RecordData ParseData(const EventRow& event) {
  const std::string label = fmt::format("removal record event {}", event.id);
  nlohmann::json data;
  try {
    data = nlohmann::json::parse(event.data);
  } catch (const nlohmann::json::exception&) {
    throw LogBroken(fmt::format("{}: its data is not JSON", label));
  }
  const auto integer = [&](const char* key) {
    if (!data.is_object() || !data.contains(key) || !data[key].is_number_integer())
      throw LogBroken(fmt::format("{}: its data {} has no integer \"{}\"", label, event.data, key));
    return data[key].get<std::int64_t>();
  };
  RecordData out{integer("removed"), "", integer("first_position"), integer("last_position")};
  if (!data.contains("digest") || !data["digest"].is_string() || !core::HashFromHex(data["digest"].get<std::string>()))
    throw LogBroken(fmt::format("{}: its data {} has no \"digest\" of 64 hex digits", label, event.data));
  out.digest = data["digest"].get<std::string>();
  return out;
}

void PutBigEndian(std::int64_t value, EVP_MD_CTX* context) {
  std::array<unsigned char, 8> bytes{};
  for (int i = 7; i >= 0; --i, value = static_cast<std::int64_t>(static_cast<std::uint64_t>(value) >> 8))
    bytes[static_cast<std::size_t>(i)] = static_cast<unsigned char>(value & 0xff);
  EVP_DigestUpdate(context, bytes.data(), bytes.size());
}

}  // namespace

struct RemovalRecords::State {
  State(act::LogTransaction& l, std::int64_t size) : log(l), tree_size(size) {}

  act::LogTransaction& log;
  std::int64_t tree_size = 0;
  std::int64_t log_size = 0;
  std::vector<Record> records;
  std::vector<Range> ranges;  // every record's, by begin
  bool chain_checked = false;
  std::uint64_t later = 0;

  void CheckChain();
  void Check(Record& record, std::int64_t position, std::int64_t id);
};

RemovalRecords::RemovalRecords(act::LogTransaction& log, std::uint64_t tree_size)
    : state_(std::make_unique<State>(log, static_cast<std::int64_t>(tree_size))) {
  state_->log_size = log.log_size();
  for (const act::RemovalRun& run : log.removal_runs()) {
    if (state_->records.empty() || state_->records.back().id != run.record_id) {
      Record record;
      record.id = run.record_id;
      record.position = run.record_position;
      state_->records.push_back(std::move(record));
    }
    if (!run.begin || !run.end) continue;  // a record that lists nothing accounts for nothing
    const Range range{*run.begin, *run.end, state_->records.size() - 1};
    state_->records.back().ranges.push_back(range);
    state_->ranges.push_back(range);
  }
  std::sort(state_->ranges.begin(), state_->ranges.end(),
            [](const Range& a, const Range& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < state_->ranges.size(); ++i) {
    const Range& before = state_->ranges[i - 1];
    const Range& range = state_->ranges[i];
    if (range.begin < before.end)
      throw LogBroken(fmt::format("entry {} is listed by two removal records, events {} and {}", range.begin,
                                  state_->records[before.record].id, state_->records[range.record].id));
  }
}

RemovalRecords::~RemovalRecords() = default;

std::uint64_t RemovalRecords::accounted_later() const { return state_->later; }

void RemovalRecords::AccountFor(std::int64_t position, std::int64_t id) {
  const auto after = std::upper_bound(state_->ranges.begin(), state_->ranges.end(), position,
                                      [](std::int64_t p, const Range& range) { return p < range.begin; });
  if (after == state_->ranges.begin() || position >= std::prev(after)->end)
    throw LogBroken(fmt::format("entry {} (event {}) is missing and no removal record accounts for it", position, id));
  Record& record = state_->records[std::prev(after)->record];
  if (!record.checked) state_->Check(record, position, id);
  if (!record.in_tree) ++state_->later;
}

// The records' stream, every version, along its chain: a record that was
// rewritten (its data, hence its count or digest) no longer chains.
void RemovalRecords::State::CheckChain() {
  ChainChecker chains(log);
  for (std::int32_t after = -1;;) {
    std::vector<act::ChainedEvent> page =
        log.stream_events(kRecordStream, after, std::numeric_limits<std::int32_t>::max(), kRecordPage);
    for (act::ChainedEvent& row : page) {
      after = row.event.version;
      chains.Check(EventRow(std::move(row)));
    }
    if (page.size() < static_cast<std::size_t>(kRecordPage)) break;
  }
  chain_checked = true;
}

void RemovalRecords::State::Check(Record& record, std::int64_t position, std::int64_t id) {
  std::optional<act::ChainedEvent> stored = log.event(record.id);
  if (!stored)
    throw LogBroken(fmt::format(
        "entry {} (event {}) is missing, and the removal record that lists it, event {}, is missing from act.events",
        position, id, record.id));
  const EventRow event(std::move(*stored));
  const std::string label = fmt::format("removal record event {}", record.id);
  if (event.stream != kRecordStream || event.name != kRecordName)
    throw LogBroken(
        fmt::format("{} is {}, not a \"{}\" of stream \"{}\"", label, event.Label(), kRecordName, kRecordStream));
  if (!chain_checked) CheckChain();
  const RecordData data = ParseData(event);

  std::int64_t listed = 0;
  for (const Range& range : record.ranges) listed += range.end - range.begin;
  const std::int64_t first = record.ranges.front().begin;
  const std::int64_t last = record.ranges.back().end - 1;
  if (last >= log_size)
    throw LogBroken(fmt::format("{} lists position {}, beyond the log's {} entries", label, last, log_size));

  // SHA-256 over (position, event id, entry) of each listed entry, in position order.
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL SHA-256 failed");
  for (const Range& range : record.ranges) {
    for (const act::LogEntryPresence& row : log.entries_with_presence(range.begin, range.end)) {
      const std::int64_t at = row.entry.position;
      if (!row.entry.id) throw LogBroken(fmt::format("entry {} has no event id", at));
      const std::int64_t event_id = *row.entry.id;
      if (row.event_present)
        throw LogBroken(fmt::format("{} lists entry {}, but its event {} is present", label, at, event_id));
      const core::Hash entry = StoredHash<LogBroken>(row.entry.hash, fmt::format("the hash of entry {}", at));
      PutBigEndian(at, context.get());
      PutBigEndian(event_id, context.get());
      EVP_DigestUpdate(context.get(), entry.data(), entry.size());
    }
  }
  core::Hash digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context.get(), digest.data(), &length) != 1)
    throw std::runtime_error("OpenSSL SHA-256 failed");
  // The count and bounds before the digest: they name an edit of the list more plainly.
  if (data.removed != listed)
    throw LogBroken(
        fmt::format("{} says it removed {} entries, but {} positions are listed for it", label, data.removed, listed));
  if (data.first != first || data.last != last)
    throw LogBroken(fmt::format("{} says it removed positions {} to {}, but positions {} to {} are listed for it",
                                label, data.first, data.last, first, last));
  if (core::ToHex(digest) != data.digest)
    throw LogBroken(fmt::format("{}: the digest of the {} entries listed for it is {}, its data says {}", label, listed,
                                core::ToHex(digest), data.digest));

  // Its own entry (act.log_position's), after everything it lists.
  if (record.position && *record.position <= last)
    throw LogBroken(
        fmt::format("{} is entry {}, not after every entry it lists (the last is {})", label, *record.position, last));
  record.in_tree = record.position && *record.position < tree_size;
  if (record.in_tree) {
    const std::vector<act::LogEntry> own = log.entries(*record.position, *record.position + 1);
    if (own.size() != 1 || own[0].id != record.id ||
        StoredHash<LogBroken>(own[0].hash, fmt::format("the hash of entry {}", *record.position)) != event.hash)
      throw LogBroken(fmt::format("entry {} is not {}: it holds event {}", *record.position, label,
                                  own.empty() || !own[0].id ? "none" : std::to_string(*own[0].id)));
  }
  record.checked = true;
}

}  // namespace actctl
