#include "act/core/event_query.hpp"

#include <gtest/gtest.h>

namespace act::core {
namespace {

TEST(EventQuery, NoFiltersSkipsSnapshotsInIdOrder) {
  EXPECT_EQ(EventQuerySql(EventQuery{}),
            "SELECT * FROM act.events WHERE name <> '__snapshot__' ORDER BY id LIMIT $9");
}

TEST(EventQuery, ExactStreamWithSnapsResumesAtTheLatestSnapshot) {
  EventQuery query;
  query.stream = true;
  query.with_snaps = true;
  const std::string sql = EventQuerySql(query);
  EXPECT_NE(sql.find("id >= (SELECT coalesce(max(s.id), -1)"), std::string::npos) << sql;
  EXPECT_NE(sql.find("stream = $1"), std::string::npos);
  EXPECT_EQ(sql.find("name <> '__snapshot__'"), std::string::npos);
}

TEST(EventQuery, AfterWinsOverTheSnapshotFloor) {
  EventQuery query;
  query.stream = true;
  query.with_snaps = true;
  query.after = true;
  const std::string sql = EventQuerySql(query);
  EXPECT_NE(sql.find("id > $2"), std::string::npos);
  EXPECT_EQ(sql.find("__snapshot__"), std::string::npos) << sql;
}

TEST(EventQuery, EveryFilterHasItsPredicate) {
  EventQuery query;
  query.stream = true;
  query.stream_exact = false;
  query.before = true;
  query.names = true;
  query.created_after = true;
  query.created_before = true;
  query.correlation = true;
  query.backward = true;
  query.capped = true;
  const std::string sql = EventQuerySql(query);
  for (const char* part : {"stream COLLATE \"C\" ~ $1", "id < $3", "name = ANY ($4)", "created > $5", "created < $6",
                           "(meta ->> 'correlation') = $7", "id <= $8", "ORDER BY id DESC LIMIT $9"})
    EXPECT_NE(sql.find(part), std::string::npos) << part << " missing from " << sql;
}

// A generic plan given both id bounds for one stream walked the primary
// key over every stream's events in the range (act.claim_events).
TEST(EventQuery, OneStreamIsCappedOutsideTheLimit) {
  EventQuery query;
  query.stream = true;
  query.after = true;
  query.capped = true;
  EXPECT_EQ(EventQuerySql(query),
            "SELECT * FROM (SELECT * FROM act.events WHERE id > $2 AND stream = $1 AND name <> '__snapshot__' "
            "ORDER BY version LIMIT $9) e WHERE id <= $8 ORDER BY version");
}

// The index range starts where the events after $2 start, not at the
// stream's first version.
TEST(EventQuery, OneStreamAfterAnIdStartsAtItsVersion) {
  EventQuery query;
  query.stream = true;
  query.after = true;
  query.from_version = true;
  EXPECT_EQ(EventQuerySql(query),
            "SELECT * FROM act.events WHERE id > $2 AND stream = $1 AND version >= $10 AND name <> '__snapshot__' "
            "ORDER BY version LIMIT $9");
  EventQuery without = query;
  without.from_version = false;
  EXPECT_NE(query.Key(), without.Key());
}

TEST(EventQuery, KeysDifferForDifferentFilters) {
  EventQuery a;
  EventQuery b;
  b.backward = true;
  EventQuery c;
  c.stream_exact = false;
  EXPECT_NE(a.Key(), b.Key());
  EXPECT_NE(a.Key(), c.Key());
  EXPECT_NE(b.Key(), c.Key());
}

TEST(EventQuery, OnlyExactStreamReadsSkipTheHorizonCap) {
  EventQuery all;
  EXPECT_TRUE(NeedsHorizonCap(all));
  EventQuery exact;
  exact.stream = true;
  EXPECT_FALSE(NeedsHorizonCap(exact));
  EventQuery pattern;
  pattern.stream = true;
  pattern.stream_exact = false;
  EXPECT_TRUE(NeedsHorizonCap(pattern));
}

}  // namespace
}  // namespace act::core
