#include "act/core/subscription_input.hpp"

#include <gtest/gtest.h>

#include "act/core/claim_plan.hpp"
#include "act/core/errors.hpp"

namespace act::core {
namespace {

using nlohmann::json;

std::string ErrorOf(auto call) {
  try {
    call();
  } catch (const ValidationError& error) {
    return error.what();
  }
  return "no error";
}

TEST(ClaimPlan, FrontierArithmetic) {
  const std::pair<int, int> expected[] = {{0, 0}, {1, 0}, {1, 1}, {3, 1}, {6, 2}, {75, 25}};
  const int lagging[] = {0, 1, 2, 4, 8, 100};
  for (std::size_t i = 0; i < std::size(lagging); ++i) {
    const ClaimCounts counts = PlanClaim(lagging[i], 3);
    EXPECT_EQ(counts.priority, expected[i].first) << "lagging " << lagging[i];
    EXPECT_EQ(counts.fairness, expected[i].second) << "lagging " << lagging[i];
    EXPECT_EQ(counts.leading, 3);
    EXPECT_EQ(counts.Total(), lagging[i] + 3);
  }
  EXPECT_EQ(ErrorOf([] { PlanClaim(-1, 0); }), "from_lagging must be 0 or more, not -1");
  EXPECT_EQ(ErrorOf([] { PlanClaim(0, -1); }), "from_leading must be 0 or more, not -1");
}

TEST(ClaimPlan, LeaseMillisFromZeroToAnHour) {
  EXPECT_EQ(ErrorOf([] { ValidateLeaseMillis(0); }), "no error");
  EXPECT_EQ(ErrorOf([] { ValidateLeaseMillis(3'600'000); }), "no error");
  EXPECT_EQ(ErrorOf([] { ValidateLeaseMillis(-1); }), "millis must be 0 or more, not -1");
  EXPECT_EQ(ErrorOf([] { ValidateLeaseMillis(3'600'001); }), "millis must be at most 3600000 (one hour), not 3600001");
}

TEST(ClaimPlan, SqlUsesTheWorkSetPredicateAndSkipLocked) {
  const std::string sql = ClaimSql(true);
  // The work-set indexes' predicate as sql/predicates/work_set.sql has it.
  EXPECT_NE(sql.find("NOT blocked AND at < correlated_at AND s.lane = $6"), std::string::npos);
  EXPECT_NE(sql.find("FOR UPDATE OF s SKIP LOCKED"), std::string::npos);
  EXPECT_EQ(ClaimSql(false).find("$6"), std::string::npos);
}

TEST(Subscriptions, ParsesAndDefaults) {
  const auto entries = ParseSubscriptions(json::parse(R"([{"stream": "a"}, {"stream": "b", "source": "^x", "names": ["N"],
      "priority": 2, "lane": "fast", "correlated_at": 9}])"));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].lane, "default");
  EXPECT_EQ(entries[0].priority, 0);
  EXPECT_FALSE(entries[0].source);
  EXPECT_FALSE(entries[0].mark);
  EXPECT_EQ(*entries[1].source, "^x");
  EXPECT_EQ(entries[1].names->at(0), "N");
  EXPECT_EQ(entries[1].lane, "fast");
  EXPECT_EQ(*entries[1].mark, 9);
}

TEST(Subscriptions, DuplicatesMergeInOrder) {
  const auto entries = ParseSubscriptions(json::parse(R"([{"stream": "a", "source": "s1", "priority": 5, "lane": "x",
      "correlated_at": 7}, {"stream": "a", "source": "s2", "priority": 1, "correlated_at": 3}])"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(*entries[0].source, "s1");
  EXPECT_EQ(entries[0].priority, 5);
  EXPECT_EQ(entries[0].lane, "default");
  EXPECT_EQ(*entries[0].mark, 7);
}

TEST(Subscriptions, RejectsBadShapes) {
  EXPECT_EQ(ErrorOf([] { ParseSubscriptions(json::object()); }), "subscriptions must be a JSON array, not an object");
  EXPECT_EQ(ErrorOf([] { ParseSubscriptions(json::parse(R"([{"stream": ""}])")); }),
            "subscriptions[0].stream must not be empty");
  EXPECT_EQ(ErrorOf([] { ParseSubscriptions(json::parse(R"([{"stream": "a", "names": []}])")); }),
            "subscriptions[0].names must not be empty (omit it or use null for every event name)");
  EXPECT_EQ(ErrorOf([] { ParseSubscriptions(json::parse(R"([{"stream": "a", "priority": 3000000000}])")); }),
            "subscriptions[0].priority must be at most 2147483647");
  EXPECT_EQ(ErrorOf([] { ParseSubscriptions(json::parse(R"([{"stream": "a", "correlated_at": -2}])")); }),
            "subscriptions[0].correlated_at must be between -1 and 9223372036854775807, not -2");
  EXPECT_EQ(ErrorOf([] { ParseSubscriptions(json::parse(R"([{"stream": "a", "lane": ""}])")); }),
            "subscriptions[0].lane must not be empty");
  EXPECT_EQ(ErrorOf([] { ParseSubscriptions(json::parse(R"([{"stream": "a"}, {"stream": "b", "sorce": "x"}])")); }),
            "subscriptions[1]: unknown key \"sorce\" (known: stream, source, names, priority, lane, correlated_at)");
}

TEST(AddedNames, KeepsOrderAndDropsRepeats) {
  EXPECT_EQ(ParseAddedNames(json::parse(R"(["B", "A", "B"])")), (std::vector<std::string>{"B", "A"}));
}

TEST(AddedNames, RejectsBadShapes) {
  EXPECT_EQ(ErrorOf([] {
              ParseAddedNames(json::object({{"names", {"A"}}}));
            }),
            "names must be a JSON array, not an object");
  EXPECT_EQ(ErrorOf([] { ParseAddedNames(nullptr); }), "names must be a JSON array, not null");
  EXPECT_EQ(ErrorOf([] { ParseAddedNames(json::array()); }), "names must not be empty: give the event names to add");
  EXPECT_EQ(ErrorOf([] { ParseAddedNames(json::parse(R"(["A", 1])")); }), "names[1] must be a string, not a number");
  EXPECT_EQ(ErrorOf([] { ParseAddedNames(json::parse(R"([""])")); }), "names[0] must not be empty");
  EXPECT_EQ(ErrorOf([] { ParseAddedNames(json::array({std::string(201, 'n')})); }),
            "names[0] is longer than 200 bytes");
  EXPECT_EQ(ErrorOf([] { ParseAddedNames(json::parse(R"(["A", "__snapshot__"])")); }),
            "names[1] is \"__snapshot__\": snapshots and tombstones are never work");
  EXPECT_EQ(ErrorOf([] { ParseAddedNames(json::parse(R"(["__tombstone__"])")); }),
            "names[0] is \"__tombstone__\": snapshots and tombstones are never work");
}

TEST(Correlator, Parses) {
  EXPECT_FALSE(ParseCorrelator(nullptr));
  const auto lease = ParseCorrelator(json::parse(R"({"key": "k", "by": "w", "millis": 500})"));
  ASSERT_TRUE(lease);
  EXPECT_EQ(lease->key, "k");
  EXPECT_EQ(lease->millis, 500);
  EXPECT_EQ(ErrorOf([] { ParseCorrelator(json::parse(R"({"key": "k", "millis": 5})")); }), "correlator.by is required");
  EXPECT_EQ(ParseCorrelator(json::parse(R"({"key": "k", "by": "w", "millis": 3600000})"))->millis, 3'600'000);
  EXPECT_EQ(ErrorOf([] { ParseCorrelator(json::parse(R"({"key": "k", "by": "w", "millis": 3600001})")); }),
            "correlator.millis must be at most 3600000")
      << "a correlator lease longer than a claim's";
}

TEST(Leases, AckEntries) {
  const auto leases = ParseLeases(json::parse(R"([{"stream": "a", "by": "w", "at": 4, "lagging": true, "retry": 2,
      "source": null, "lane": "x"}, {"stream": "b", "by": "w", "at": 1, "due": 1700000000000},
      {"stream": "c", "by": "w", "at": 1, "due": "2030-01-01"}])"),
                                  LeaseUse::kAck);
  ASSERT_EQ(leases.size(), 3u);
  EXPECT_EQ(leases[0].at, 4);
  EXPECT_TRUE(leases[0].lagging);
  EXPECT_EQ(*leases[0].retry, 2);
  EXPECT_FALSE(leases[0].HasDue());
  EXPECT_EQ(*leases[1].due_epoch_ms, 1700000000000);
  EXPECT_EQ(*leases[2].due_text, "2030-01-01");
}

TEST(Leases, LaterEntriesReplaceEarlierOnes) {
  const auto leases = ParseLeases(
      json::parse(R"([{"stream": "a", "by": "w", "at": 1}, {"stream": "a", "by": "w", "at": 2}])"), LeaseUse::kAck);
  ASSERT_EQ(leases.size(), 1u);
  EXPECT_EQ(leases[0].at, 2);
}

TEST(Leases, RejectsBadShapes) {
  EXPECT_EQ(ErrorOf([] { ParseLeases(json::parse(R"([{"stream": "a", "at": 1}])"), LeaseUse::kAck); }),
            "leases[0].by is required");
  EXPECT_EQ(ErrorOf([] { ParseLeases(json::parse(R"([{"stream": "a", "by": "w", "at": 1.5}])"), LeaseUse::kAck); }),
            "leases[0].at must be an integer, not 1.5");
  EXPECT_EQ(ErrorOf([] { ParseLeases(json::parse(R"([{"stream": "a", "by": "w", "at": 1e30}])"), LeaseUse::kAck); }),
            "leases[0].at must be an integer, not 1e+30");
  EXPECT_EQ(ErrorOf([] { ParseLeases(json::parse(R"([{"stream": "a", "by": "w", "at": 18446744073709551615}])"), LeaseUse::kAck); }),
            "leases[0].at must be at most 9223372036854775807");
  EXPECT_EQ(ErrorOf([] { ParseLeases(json::parse(R"([{"stream": "a", "by": "w", "at": 1, "due": true}])"), LeaseUse::kAck); }),
            "leases[0].due must be an integer, not a boolean");
  EXPECT_EQ(ErrorOf([] { ParseLeases(json::parse(R"([{"stream": "a", "by": "w"}])"), LeaseUse::kBlock); }),
            "leases[0].error is required");
  EXPECT_EQ(ErrorOf([] { ParseLeases(json::parse(R"([{"stream": "a", "by": "w", "at": 1, "att": 2}])"), LeaseUse::kAck); }),
            "leases[0]: unknown key \"att\" (known: stream, by, at, lagging, retry, due, source, lane)");
  EXPECT_EQ(ErrorOf([] { ParseLeases(json::parse(R"([{"stream": "a", "by": "w", "error": "x", "due": 1}])"), LeaseUse::kBlock); }),
            "leases[0]: unknown key \"due\" (known: stream, by, error, lagging, source, at, retry, lane)");
  // A claim row passed back as it is.
  EXPECT_NO_THROW(ParseLeases(json::parse(R"([{"stream": "a", "source": "s", "at": 1, "by": "w", "retry": 0,
      "lagging": true, "lane": "default"}])"), LeaseUse::kAck));
  EXPECT_EQ(ErrorOf([] { ParseLeases(json::parse(R"(["a"])"), LeaseUse::kBlock); }),
            "leases[0] must be a JSON object, not a string");
}

TEST(Sources, PatternsHoldMetacharacters) {
  for (const char* literal : {"order-1", "Order_1", "a:b/c", "x@y"}) EXPECT_FALSE(IsPattern(literal)) << literal;
  for (const char* pattern : {"^a", "a$", "a.b", "a*", "a+", "a?", "(a)", "[a]", "a{2}", "a|b", "a\\d"})
    EXPECT_TRUE(IsPattern(pattern)) << pattern;
}

TEST(WorkMarks, HighestMatchingIdNeverSnapshots) {
  const std::vector<EventRef> events = {{5, "A"}, {6, "B"}, {7, "__snapshot__"}, {8, "A"}, {9, "__tombstone__"}};
  EXPECT_EQ(WorkMark(std::nullopt, events), 8);
  EXPECT_EQ(WorkMark(std::vector<std::string>{"B"}, events), 6);
  EXPECT_EQ(WorkMark(std::vector<std::string>{"C"}, events), std::nullopt);
  EXPECT_EQ(WorkMark(std::vector<std::string>{"__snapshot__"}, events), std::nullopt);
}

}  // namespace
}  // namespace act::core
