#include "support/tallies.hpp"

#include <thread>

#include "support/counter.hpp"

namespace act::test {

Projection tally(const TallyOptions& options) {
  const std::string table = options.table;
  const std::int32_t partitions = options.partitions;
  const auto per_event = options.per_event;
  return act::projection(table)
      .source("^" + options.prefix + "-")
      .lane(options.lane)
      .setup([table](Sql& sql) {
        sql.exec("CREATE TABLE IF NOT EXISTS " + table +
                 " (seq bigserial PRIMARY KEY, partition int NOT NULL, stream text NOT NULL,"
                 " version int NOT NULL, id bigint NOT NULL)");
      })
      .truncate([table](Sql& sql) { sql.exec("TRUNCATE " + table); })
      .on<Incremented>("Incremented",
                       [table, partitions, per_event](const Incremented&, const Committed& event, Sql& sql) {
                         if (per_event.count() > 0) std::this_thread::sleep_for(per_event);
                         sql.exec("INSERT INTO " + table + " (partition, stream, version, id) VALUES ($1, $2, $3, $4)",
                                  {partition_of(event.stream, partitions), event.stream, event.version, event.id});
                       })
      .build();
}

Lane tally_lane(const std::string& name) {
  Lane lane{name};
  lane.lease = std::chrono::milliseconds(500);
  lane.cycle = std::chrono::milliseconds(100);
  return lane;
}

std::string tally_summary_sql(const std::string& table, bool partition_order) {
  return "SELECT concat_ws(' ', count(*), count(DISTINCT (stream, version)),"
         "  count(*) FILTER (WHERE version <> coalesce(previous_version + 1, 0))" +
         std::string(partition_order ? ", count(*) FILTER (WHERE id <= previous_id))" : ")") +
         " FROM (SELECT stream, version, id,"
         "         lag(version) OVER (PARTITION BY stream ORDER BY seq) AS previous_version,"
         "         lag(id) OVER (PARTITION BY partition ORDER BY seq) AS previous_id"
         "       FROM " + table + ") AS applied";
}

App tallied_app(PartitionMap map, const TallyOptions& options, std::shared_ptr<ConnectionPool> read_model) {
  TallyOptions local = options;
  local.table = options.table + "_local";
  return act::app(std::move(map))
      .with(counter_state())
      .with(tally(local))
      .with(tally(options), std::move(read_model))
      .lane(tally_lane(options.lane))
      .logger(stderr_logger(LogLevel::kError))
      .build();
}

}  // namespace act::test
