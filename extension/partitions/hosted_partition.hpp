#pragma once
// Partitioned mode (docs/scale-out.md): a database set up with
// act.set_partition(partition, partitions) holds the streams of one
// partition and refuses calls for any other stream, so a misrouted call can
// never split a stream's history across databases.
#include <string_view>

#include "pg.hpp"

namespace act::pg {

// Throws ValidationError (22023) when this database is one partition and
// the stream belongs to another. Free in single-partition mode once the
// setting is known: it is cached per backend until act.set_partition
// changes it (a relcache invalidation of act.partitioning).
void RequireHostedStream(std::string_view stream);

// Consistency boundaries (docs/scale-out.md, "Consistency boundaries"): a
// tag lives on the partition act.partition_of(tag) names, like a stream of
// that name. Throws ValidationError (22023) naming `what` (an event, a query
// item) when this database is one partition and the tag belongs to another.
void RequireHostedTag(std::string_view tag, std::string_view what);
// Whether this database is one partition of several.
bool Partitioned();

}  // namespace act::pg
