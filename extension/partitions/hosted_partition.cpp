// The partition this database hosts: act.partitioning, cached per backend,
// and the SQL functions act.partition_of, act.set_partition and
// act.hosted_partition.
#include "hosted_partition.hpp"

#include <string>

#include "act/core/errors.hpp"
#include "act/core/partition.hpp"
#include "act/core/text.hpp"
#include "act/core/validation.hpp"
#include "error_bridge.hpp"
#include "index_scan.hpp"
#include "jsonb_access.hpp"
#include "relations.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

extern "C" {
#include "partitions/hosted_partition_sql.hpp"
#include "storage/lmgr.h"
#include "utils/inval.h"
}

namespace act::pg {
namespace {

struct Hosted {
  bool known = false;
  bool partitioned = false;
  int32 partition = 0;
  int32 partitions = 1;
  Oid table = InvalidOid;  // act.partitioning, once it exists
};

Hosted g_hosted;
bool g_callback_registered = false;

// act.set_partition invalidates the table's relcache entry in every
// backend; before the table exists (an older schema) any invalidation may
// be the upgrade that creates it.
void ForgetOnInvalidation(Datum, Oid relation) {
  if (relation == InvalidOid || !OidIsValid(g_hosted.table) || relation == g_hosted.table) g_hosted.known = false;
}

const Hosted& HostedNow() {
  if (g_hosted.known) return g_hosted;
  if (!g_callback_registered) {
    Guard([] { CacheRegisterRelcacheCallback(ForgetOnInvalidation, Datum(0)); });
    g_callback_registered = true;
  }
  Hosted hosted;
  if (ActRelationExists("partitioning")) {
    hosted.table = Guard([] { return ActRelation("partitioning"); });
    // The latest snapshot: a commit that waited for act.set_partition's lock
    // reads the setting it committed, not its own statement's older view
    // (which would then stay cached until the next change). Read without a
    // plan: this runs on the first call of every new backend, where
    // planning a statement was half of a failing act.commit's cost.
    IndexScan row("partitioning", "partitioning_pkey", nullptr, 0, ScanSnapshot::kLatest);
    if (row.Next()) {
      hosted.partitioned = true;
      hosted.partition = *row.Int32At(row.Column("partition"));
      hosted.partitions = *row.Int32At(row.Column("partitions"));
    }
  }
  hosted.known = true;
  g_hosted = hosted;
  return g_hosted;
}

std::string Refusal(std::string_view stream, int32 belongs_to, const Hosted& hosted) {
  return "stream " + core::Quoted(stream) + " belongs to partition " + std::to_string(belongs_to) + " of " +
         std::to_string(hosted.partitions) + "; this database hosts partition " + std::to_string(hosted.partition) +
         " (route the call by act.partition_of)";
}

}  // namespace

void RequireHostedStream(std::string_view stream) {
  const Hosted& hosted = HostedNow();
  if (!hosted.partitioned) return;
  const int32 belongs_to = core::PartitionOf(stream, hosted.partitions);
  if (belongs_to != hosted.partition) throw core::ValidationError(Refusal(stream, belongs_to, hosted));
}

void RequireHostedTag(std::string_view tag, std::string_view what) {
  const Hosted& hosted = HostedNow();
  if (!hosted.partitioned) return;
  const int32 belongs_to = core::PartitionOf(tag, hosted.partitions);
  if (belongs_to != hosted.partition)
    throw core::ValidationError(std::string(what) + ": tag " + core::Quoted(tag) + " belongs to partition " +
                                std::to_string(belongs_to) + " of " + std::to_string(hosted.partitions) +
                                "; this database hosts partition " + std::to_string(hosted.partition) +
                                " (a boundary lives on one partition: route by act.partition_of)");
}

bool Partitioned() { return HostedNow().partitioned; }

}  // namespace act::pg

using namespace act;

// act.partition_of(stream, partitions DEFAULT NULL): the stream's partition
// among `partitions`, or among this database's partition count (0 in
// single-partition mode, where every stream is in partition 0 of 1).
ACT_SQL_FUNCTION(act_partition_of) {
  if (PG_ARGISNULL(0)) throw core::ValidationError("stream must not be null", core::sqlstate::kNullValueNotAllowed);
  const std::string_view stream = pg::TextArg(fcinfo, 0);
  int32 partitions = 1;
  if (!PG_ARGISNULL(1)) {
    const int32 given = PG_GETARG_INT32(1);
    core::ValidatePartitionCount(given);
    partitions = given;
  } else if (const auto& hosted = pg::HostedNow(); hosted.partitioned) {
    partitions = hosted.partitions;
  }
  PG_RETURN_INT32(core::PartitionOf(stream, partitions));
}

namespace act::pg {
namespace {

// A stream, or a subscription's literal source, of another partition.
const Oid kMisplacedArgTypes[] = {INT4OID, INT4OID};
SavedPlan g_misplaced_plan(hosted_partition_sql::kMisplaced, 2, kMisplacedArgTypes);

const Oid kStoreArgTypes[] = {INT4OID, INT4OID};
SavedPlan g_store_plan(hosted_partition_sql::kStore, 2, kStoreArgTypes);

}  // namespace
}  // namespace act::pg

// act.set_partition(partition, partitions): this database becomes that
// partition. Refused while it holds a stream of another partition; every
// backend drops its cached setting when the change commits.
ACT_SQL_FUNCTION(act_set_partition) {
  for (int arg = 0; arg < 2; ++arg)
    if (PG_ARGISNULL(arg))
      throw core::ValidationError(std::string(arg == 0 ? "partition" : "partitions") + " must not be null",
                                  core::sqlstate::kNullValueNotAllowed);
  const int32 partition = PG_GETARG_INT32(0);
  const int32 partitions = PG_GETARG_INT32(1);
  core::ValidatePartitionCount(partitions);
  if (partition < 0 || partition >= partitions)
    throw core::ValidationError("partition must be from 0 to " + std::to_string(partitions - 1) + ", not " +
                                std::to_string(partition));
  Datum args[2] = {Int32GetDatum(partition), Int32GetDatum(partitions)};
  // Commits wait (and see the new setting when they get their insert lock);
  // those in flight finish first, so the check below sees their streams.
  // The registry first, as every commit takes it before its insert lock
  // (locks.hpp): a subscribe that adds rows holds it exclusively, so one in
  // flight ends before the check sees its sources, and a later one waits and
  // then checks its literal sources against the new setting.
  const Oid registry = pg::Guard([] { return pg::ActRelation("subscriptions"); });
  pg::Guard([registry] { LockRelationOid(registry, ShareLock); });
  const Oid events = pg::Guard([] { return pg::ActRelation("events"); });
  pg::Guard([events] { LockRelationOid(events, ShareLock); });
  pg::SpiSession spi;
  pg::ExecuteOnLatest(pg::g_misplaced_plan.Get(), args, nullptr, true, 1, SPI_OK_SELECT);
  if (pg::RowCount() > 0) {
    const std::string stream(*pg::RowText(0, 1));
    throw core::ValidationError("this database holds " + core::Quoted(stream) + " (a stream or a subscription's source) of partition " +
                                std::to_string(core::PartitionOf(stream, partitions)) + " of " +
                                std::to_string(partitions) + ": it cannot become partition " + std::to_string(partition));
  }
  pg::Execute(pg::g_store_plan.Get(), args, nullptr, false, 0, SPI_OK_INSERT);
  spi.Finish();
  const Oid table = pg::Guard([] { return pg::ActRelation("partitioning"); });
  pg::Guard([table] { CacheInvalidateRelcacheByRelid(table); });
  PG_RETURN_VOID();
}

// act._require_hosted(stream): RequireHostedStream for the SQL-language
// functions (act.forget_pii, act.truncate, act.query_stats).
ACT_SQL_FUNCTION(act_require_hosted) {
  if (!PG_ARGISNULL(0)) pg::RequireHostedStream(pg::TextArg(fcinfo, 0));
  PG_RETURN_VOID();
}
