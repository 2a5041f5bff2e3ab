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

}  // namespace act::pg
