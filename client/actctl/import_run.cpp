#include "import_run.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "act/errors.hpp"
#include "command.hpp"
#include "import_meta.hpp"
#include "import_reader.hpp"
#include "progress.hpp"

namespace actctl {

namespace {

constexpr std::int32_t kResumePage = 1000;

// Consecutive events of one stream that one act.commit can carry: act.commit
// gives every event of a call the same meta, so a run is as long as the
// source's events share their meta and time (one commit of Act's Postgres
// store; Message DB and Emmett give each message its own id, so one each).
struct Batch {
  std::vector<act::Message> messages;
  std::string stream;
  nlohmann::json meta;
  act::Timestamp created{};
  std::int32_t first_version = 0;
  std::int64_t first_position = 0, last_position = 0;

  bool Takes(const SourceEvent& event) const {
    return !messages.empty() && event.stream == stream &&
           event.version == first_version + static_cast<std::int32_t>(messages.size()) && event.created == created &&
           event.meta == meta;
  }
};

class Writer {
 public:
  Writer(const ImportSource& source, act::Store& store, bool dry_run)
      : source_(source), store_(store), dry_run_(dry_run) {}

  void Add(SourceEvent event) {
    if (!batch_.Takes(event)) Flush();
    if (batch_.messages.empty()) {
      CheckNextVersion(event);
      batch_.stream = event.stream;
      batch_.meta = std::move(event.meta);
      batch_.created = event.created;
      batch_.first_version = event.version;
      batch_.first_position = event.position;
    }
    batch_.last_position = event.position;
    batch_.messages.push_back(act::Message{std::move(event.name), std::move(event.data), std::nullopt});
  }

  void Flush() {
    if (batch_.messages.empty()) return;
    const std::string key = ImportKey(source_.name, batch_.first_position, batch_.last_position);
    const nlohmann::json meta = TargetMeta(batch_.meta, batch_.created, batch_.first_position, key);
    if (!dry_run_) {
      const std::optional<std::int32_t> expected = batch_.first_version == 0 ? -1 : batch_.first_version - 1;
      try {
        store_.commit(batch_.stream, batch_.messages, meta, expected);
      } catch (const act::ConcurrencyError& e) {
        throw UsageError(
            fmt::format("stream \"{}\" in pg_act is not where the source's event at position {} "
                        "continues it (version {}): {}; was it written by other means meanwhile?",
                        batch_.stream, batch_.first_position, batch_.first_version, e.what()));
      }
    }
    next_version_[batch_.stream] = batch_.first_version + static_cast<std::int32_t>(batch_.messages.size());
    ++commits_;
    batch_.messages.clear();
  }

  std::int64_t commits() const { return commits_; }
  std::int64_t streams() const { return static_cast<std::int64_t>(next_version_.size()); }

 private:
  // A stream must continue in pg_act exactly where the source continues it:
  // checked before anything is sent, so a dry run finds what a run would
  // refuse (a source whose streams do not count from 0, a target stream
  // written by other means).
  void CheckNextVersion(const SourceEvent& event) {
    auto next = next_version_.find(event.stream);
    if (next == next_version_.end()) next = next_version_.emplace(event.stream, store_.version(event.stream) + 1).first;
    if (event.version != next->second)
      throw UsageError(fmt::format(
          "the source's event at position {} has version {} of stream \"{}\", but the stream's next version in "
          "pg_act is {}{}",
          event.position, event.version, event.stream, next->second,
          next->second == 0 ? " (pg_act numbers a stream's events from 0, without gaps)" : ""));
  }

  const ImportSource& source_;
  act::Store& store_;
  const bool dry_run_;
  Batch batch_;
  std::unordered_map<std::string, std::int32_t> next_version_;
  std::int64_t commits_ = 0;
};

}  // namespace

std::int64_t ImportedUpTo(act::Store& store, const ImportSource& source) {
  std::optional<std::int64_t> before;
  for (;;) {
    act::Query page;
    page.backward = true;
    page.with_snaps = true;
    page.before = before;
    page.limit = kResumePage;
    std::optional<std::int64_t> found;
    std::int64_t seen = 0;
    store.query(page, [&](const act::Committed& event) {
      if (!found) found = LastPositionOf(source.name, event.meta);
      before = event.id;
      ++seen;
    });
    if (found) return *found;
    if (seen < kResumePage) return 0;
  }
}

ImportReport RunImport(pqxx::connection& source_connection, const ImportSource& source, act::Store& store,
                       const ImportOptions& options) {
  ImportReport report;
  report.resumed_after = ImportedUpTo(store, source);
  const SourceCounts counts = CountSource(source_connection, source, report.resumed_after);
  Progress progress(stderr, options.dry_run ? "import (dry run)" : "import", "import",
                    options.dry_run ? "read" : "imported");
  progress.Start(static_cast<std::int64_t>(counts.per_stream.size()), counts.events);
  Writer writer(source, store, options.dry_run);
  SourceReader reader(source_connection, source, report.resumed_after);
  while (!options.limit || report.events < *options.limit) {
    std::optional<SourceEvent> event = reader.Next();
    if (!event) {
      report.complete = true;
      break;
    }
    writer.Add(std::move(*event));
    ++report.events;
    progress.Update(writer.streams(), report.events);
  }
  writer.Flush();
  report.commits = writer.commits();
  report.streams = writer.streams();
  progress.Finish(report.streams, report.events);
  return report;
}

}  // namespace actctl
