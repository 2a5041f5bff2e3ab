#include "import_check.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <optional>

#include "import_meta.hpp"
#include "import_reader.hpp"
#include "progress.hpp"

namespace actctl {

namespace {

constexpr std::size_t kShownDifferences = 10;

class Comparison {
 public:
  explicit Comparison(CheckReport& report) : report_(report) {}

  void Differs(std::string line) {
    ++report_.difference_count;
    if (report_.differences.size() < kShownDifferences) report_.differences.push_back(std::move(line));
  }

  // One event of pg_act against the source's event in the same place of the order.
  void Compare(const act::Committed& target, const SourceEvent& source) {
    const auto where = [&] {
      return fmt::format(
          "pg_act's event {} (\"{}\" version {}) against the source's at position {} (\"{}\" version "
          "{})",
          target.id, target.stream, target.version, source.position, source.stream, source.version);
    };
    if (target.stream != source.stream || target.version != source.version) {
      Differs(where() + ": another event in this place of the order");
      return;
    }
    const Restored restored = RestoredFrom(target.meta);
    if (target.name != source.name)
      Differs(where() + fmt::format(": name \"{}\", not \"{}\"", target.name, source.name));
    if (target.data != source.data) Differs(where() + ": other data");
    if (restored.meta != source.meta) Differs(where() + ": other metadata");
    if (restored.created != source.created)
      Differs(where() + fmt::format(": time {}, not {}",
                                    restored.created ? act::to_iso8601(*restored.created) : "missing",
                                    act::to_iso8601(source.created)));
  }

 private:
  CheckReport& report_;
};

}  // namespace

CheckReport CheckImport(pqxx::connection& source_connection, const ImportSource& source, act::Store& store) {
  CheckReport report;
  Comparison comparison(report);
  const SourceCounts counts = CountSource(source_connection, source, 0);
  report.streams = static_cast<std::int64_t>(counts.per_stream.size());
  Progress progress(stderr, "check", "compare", "compared");
  progress.Start(report.streams, counts.events);

  std::map<std::string, std::int64_t> target_counts;
  SourceReader reader(source_connection, source, 0);
  std::optional<SourceEvent> next = reader.Next();
  act::Query all;
  all.with_snaps = true;  // an imported snapshot is an event of the source like any other
  store.query(all, [&](const act::Committed& event) {
    if (!counts.per_stream.contains(event.stream)) return;  // pg_act's own streams are not the import's
    ++target_counts[event.stream];
    if (!next) {
      comparison.Differs(fmt::format("pg_act's event {} (\"{}\" version {}) is after the source's last event", event.id,
                                     event.stream, event.version));
      return;
    }
    comparison.Compare(event, *next);
    ++report.events;
    progress.Update(static_cast<std::int64_t>(target_counts.size()), report.events);
    next = reader.Next();
  });
  if (next)
    comparison.Differs(
        fmt::format("the source's event at position {} (\"{}\" version {}) and those after it are not "
                    "in pg_act",
                    next->position, next->stream, next->version));
  for (const auto& [stream, events] : counts.per_stream) {
    const auto found = target_counts.find(stream);
    const std::int64_t held = found == target_counts.end() ? 0 : found->second;
    if (held != events)
      comparison.Differs(fmt::format("stream \"{}\": {} events in the source, {} in pg_act", stream, events, held));
  }
  progress.Finish(report.streams, report.events);
  return report;
}

}  // namespace actctl
