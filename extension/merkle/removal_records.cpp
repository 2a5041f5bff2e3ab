// act._describe_removal(ids, before_upgrade) for act.truncate, and the
// ledger of removal records act.verify_log checks missing entries against.
#include "removal_records.hpp"

#include <algorithm>
#include <map>

#include "act/core/errors.hpp"
#include "arrays.hpp"
#include "log_store.hpp"
#include "merkle/removal_records_sql.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

namespace act::pg::log {

namespace removal = core::removal;

namespace {

constexpr Oid kNoArgs[] = {InvalidOid};
SavedPlan g_records(removal_records_sql::kRecords, 0, kNoArgs, PlanMode::kGeneric);

struct Record {
  int64 id = 0;
  std::optional<std::string> positions;
  bool event_present = false;
  std::string stream, name;
  std::optional<std::string> data;
};

std::vector<Record> ReadRecords() {
  Execute(g_records.Get(), nullptr, nullptr, true, 0, SPI_OK_SELECT);
  std::vector<Record> records(RowCount());
  for (uint64 row = 0; row < records.size(); ++row) {
    Record& record = records[row];
    record.id = RowInt64(row, 1).value_or(0);
    if (const auto text = RowText(row, 2)) record.positions.emplace(*text);
    record.event_present = RowInt64(row, 3).has_value();
    record.stream = std::string(RowText(row, 4).value_or(""));
    record.name = std::string(RowText(row, 5).value_or(""));
    if (const auto text = RowText(row, 6)) record.data.emplace(*text);
  }
  return records;
}

// Bundles read once each while a record's positions are walked in order.
class Entries {
 public:
  explicit Entries(ReadOn snapshot) : snapshot_(snapshot) {}
  // The id and entry at a position; nullopt when the tree has none there.
  std::optional<std::pair<int64, Hash>> At(std::uint64_t position) {
    const std::uint64_t index = position / core::tlog::kTileWidth;
    if (!bundle_ || bundle_->index != index) {
      bundle_ = ReadBundle(index, snapshot_);
      if (bundle_ && bundle_->damage) bundle_.reset();
    }
    const std::uint64_t offset = position % core::tlog::kTileWidth;
    if (!bundle_ || offset >= bundle_->ids.size() || offset >= bundle_->entries.size()) return std::nullopt;
    return std::make_pair(bundle_->ids[offset], bundle_->entries[offset]);
  }

 private:
  ReadOn snapshot_;
  std::optional<EntryBundle> bundle_;
};

}  // namespace

RemovalDescription DescribeRemoval(std::vector<int64> ids, bool before_upgrade) {
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end())
    throw core::ValidationError("ids name one event twice");
  std::vector<std::uint64_t> positions;
  positions.reserve(ids.size());
  removal::Digest digest;
  std::optional<EntryBundle> bundle;
  for (const int64 id : ids) {
    if (!bundle || bundle->ids.empty() || id > bundle->ids.back()) {
      const std::optional<std::uint64_t> index = BundleIndexOf(id, ReadOn::kLatest);
      bundle = index ? ReadBundle(*index, ReadOn::kLatest) : std::nullopt;
    }
    const auto found = bundle ? std::lower_bound(bundle->ids.begin(), bundle->ids.end(), id) : std::vector<int64>::iterator();
    if (!bundle || bundle->damage || found == bundle->ids.end() || *found != id)
      throw core::SqlError(core::sqlstate::kDataCorrupted,
                           "event " + std::to_string(id) + " is removed but the log's tree has no entry for it");
    const auto offset = static_cast<std::size_t>(found - bundle->ids.begin());
    const std::uint64_t position = bundle->index * core::tlog::kTileWidth + offset;
    digest.Add(position, id, bundle->entries[offset]);
    positions.push_back(position);  // increasing: ids are, and so are their positions
  }
  const std::vector<removal::Run> runs = removal::RunsOf(positions);
  removal::Statement statement;
  statement.removed = positions.size();
  statement.digest = digest.Finish();
  statement.first_position = positions.empty() ? 0 : positions.front();
  statement.last_position = positions.empty() ? 0 : positions.back();
  statement.before_upgrade = before_upgrade;
  return {removal::FormatMultirange(runs), removal::FormatStatement(statement)};
}

void RemovalLedger::Load(std::uint64_t tree_size, const Reporter& report) {
  runs_.clear();
  cursor_ = 0;
  const std::vector<Record> records = ReadRecords();
  Entries entries(ReadOn::kStatement);
  for (const Record& record : records) {
    const auto fault = [&](const std::string& problem) {
      report(std::nullopt, record.id, "removal record " + std::to_string(record.id) + " " + problem);
    };
    std::vector<removal::Run> runs;
    try {
      runs = removal::ParseMultirange(record.positions.value_or(""), "its positions");
    } catch (const core::ValidationError& error) {
      fault(std::string("in act.log_removals is unreadable: ") + error.what());
      continue;
    }
    for (const removal::Run& run : runs) runs_.push_back({run, record.id});
    if (!record.event_present) {
      fault("is listed in act.log_removals but its event is missing from act.events");
      continue;
    }
    if (record.stream != removal::kRecordStream || record.name != removal::kRecordEvent) {
      fault("is listed in act.log_removals but its event is not a " + std::string(removal::kRecordEvent) + " of " +
            std::string(removal::kRecordStream));
      continue;
    }
    removal::Statement statement;
    try {
      statement = removal::ParseStatement(record.data.value_or(""));
    } catch (const core::ValidationError& error) {
      fault(std::string("states nothing readable: ") + error.what());
      continue;
    }
    if (statement.removed != removal::CountOf(runs)) {
      fault("states " + std::to_string(statement.removed) + " entries removed but act.log_removals lists " +
            std::to_string(removal::CountOf(runs)) + " (" + removal::FormatMultirange(runs) + ")");
      continue;
    }
    if (!runs.empty() &&
        (statement.first_position != runs.front().begin || statement.last_position != runs.back().end - 1)) {
      fault("states entries " + std::to_string(statement.first_position) + " to " +
            std::to_string(statement.last_position) + " removed but act.log_removals lists " +
            removal::FormatMultirange(runs));
      continue;
    }
    removal::Digest digest;
    bool complete = true;
    for (const removal::Run& run : runs) {
      for (std::uint64_t position = run.begin; position < run.end && complete; ++position) {
        const auto entry = position < tree_size ? entries.At(position) : std::nullopt;
        if (!entry) {
          fault("lists entry " + std::to_string(position) + ", which the tree does not hold");
          complete = false;
          break;
        }
        digest.Add(position, entry->first, entry->second);
      }
    }
    if (!complete) continue;
    if (digest.Finish() != statement.digest) {
      fault("lists entries that do not match the digest its event states: act.log_removals was changed");
      continue;
    }
    const std::optional<std::uint64_t> own = PositionOf(record.id);
    if (own && !runs.empty() && *own <= runs.back().end - 1)
      fault("lists entries at or after its own position " + std::to_string(*own));
  }
  std::sort(runs_.begin(), runs_.end(),
            [](const ListedRun& a, const ListedRun& b) { return a.run.begin < b.run.begin; });
  for (std::size_t i = 1; i < runs_.size(); ++i)
    if (runs_[i].run.begin < runs_[i - 1].run.end)
      report(static_cast<int64>(runs_[i].run.begin), std::nullopt,
             "entry " + std::to_string(runs_[i].run.begin) + " is listed by removal records " +
                 std::to_string(runs_[i - 1].record_id) + " and " + std::to_string(runs_[i].record_id));
}

std::optional<int64> RemovalLedger::RecordListing(std::uint64_t position) {
  if (runs_.empty()) return std::nullopt;
  if (cursor_ >= runs_.size() || runs_[cursor_].run.begin > position) {
    // Asked out of order: find the last run starting at or before it.
    const auto after = std::upper_bound(runs_.begin(), runs_.end(), position,
                                        [](std::uint64_t p, const ListedRun& r) { return p < r.run.begin; });
    if (after == runs_.begin()) {
      cursor_ = 0;
      return std::nullopt;
    }
    cursor_ = static_cast<std::size_t>(after - runs_.begin()) - 1;
  }
  while (cursor_ + 1 < runs_.size() && runs_[cursor_ + 1].run.begin <= position) ++cursor_;
  const ListedRun& run = runs_[cursor_];
  if (position >= run.run.begin && position < run.run.end) return run.record_id;
  return std::nullopt;
}

}  // namespace act::pg::log

// act._describe_removal(ids bigint[], before_upgrade boolean) RETURNS TABLE(positions text, statement text)
ACT_SQL_FUNCTION(act_describe_removal) {
  using namespace act;
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
    throw core::ValidationError("ids and before_upgrade must not be null", core::sqlstate::kNullValueNotAllowed);
  std::vector<int64> ids = pg::Int64ArrayElements(PG_GETARG_DATUM(0));
  const bool before_upgrade = PG_GETARG_BOOL(1);
  pg::SpiSession spi;
  const pg::log::RemovalDescription description = pg::log::DescribeRemoval(std::move(ids), before_upgrade);
  spi.Finish();
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  Datum values[2] = {pg::MakeText(description.positions), pg::MakeText(description.statement)};
  bool nulls[2] = {false, false};
  Datum* value_ptr = values;
  bool* null_ptr = nulls;
  pg::Guard([result, value_ptr, null_ptr] {
    tuplestore_putvalues(result->setResult, result->setDesc, value_ptr, null_ptr);
  });
  return Datum(0);
}
