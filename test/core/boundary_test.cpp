#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "act/core/boundary_locks.hpp"
#include "act/core/boundary_query.hpp"
#include "act/core/errors.hpp"
#include "act/core/tags.hpp"

namespace act::core {
namespace {

using nlohmann::json;

void ExpectInvalid(const std::function<void()>& call, const std::string& fragment) {
  try {
    call();
    ADD_FAILURE() << "no error, expected one containing: " << fragment;
  } catch (const ValidationError& error) {
    EXPECT_STREQ(error.code(), "22023");
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
}

TEST(Tags, AcceptsDistinctBoundedStrings) {
  EXPECT_NO_THROW(ValidateTags("e", JsonKind::kAbsent, {}));
  EXPECT_NO_THROW(ValidateTags("e", JsonKind::kArray, {{JsonKind::kString, "a"}, {JsonKind::kString, "b"}}));
}

TEST(Tags, RefusesEachBadList) {
  ExpectInvalid([] { ValidateTags("e", JsonKind::kObject, {}); }, "\"tags\" must be a JSON array, not an object");
  ExpectInvalid([] { ValidateTags("e", JsonKind::kArray, {{JsonKind::kNumber, ""}}); }, "tag 0 must be a string");
  ExpectInvalid([] { ValidateTags("e", JsonKind::kArray, {{JsonKind::kString, ""}}); }, "tag 0 must not be empty");
  const std::string long_tag(kMaxTagBytes + 1, 'x');
  ExpectInvalid([&] { ValidateTags("e", JsonKind::kArray, {{JsonKind::kString, long_tag}}); }, "longer than 256");
  ExpectInvalid([] { ValidateTags("e", JsonKind::kArray, {{JsonKind::kString, "a"}, {JsonKind::kString, "a"}}); },
                "repeats tag \"a\"");
  std::vector<TagInput> many(kMaxTags + 1, TagInput{JsonKind::kString, "t"});
  ExpectInvalid([&] { ValidateTags("e", JsonKind::kArray, many); }, "more than 64");
}

TEST(BoundaryQuery, ParsesItems) {
  const Query query = ParseQuery(json::parse(R"({"items": [{"types": ["A", "B"], "tags": ["t"]}, {}]})"), "query");
  ASSERT_EQ(query.items.size(), 2u);
  EXPECT_EQ(query.items[0].types, (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(query.items[0].tags, (std::vector<std::string>{"t"}));
  EXPECT_TRUE(query.items[1].types.empty());
}

TEST(BoundaryQuery, RefusesEachBadQuery) {
  ExpectInvalid([] { ParseQuery(json::array(), "query"); }, "query must be");
  ExpectInvalid([] { ParseQuery(json::object(), "query"); }, "query has no \"items\"");
  ExpectInvalid([] { ParseQuery(json::parse(R"({"items": [], "x": 1})"), "query"); }, "\"x\"");
  ExpectInvalid([] { ParseQuery(json::parse(R"({"items": {}})"), "query"); }, "query.items must be");
  ExpectInvalid([] { ParseQuery(json::parse(R"({"items": [{"tag": []}]})"), "query"); }, "\"tag\"");
  ExpectInvalid([] { ParseQuery(json::parse(R"({"items": [{"types": "A"}]})"), "query"); }, "types must be");
  ExpectInvalid([] { ParseQuery(json::parse(R"({"items": [{"types": [1]}]})"), "query"); },
                "query.items[0].types[0] must be a string");
  ExpectInvalid([] { ParseQuery(json::parse(R"({"items": [{"tags": ["a", "a"]}]})"), "query"); }, "repeats");
  json items = json::array();
  for (std::size_t i = 0; i <= kMaxQueryItems; ++i) items.push_back(json::object());
  ExpectInvalid([&] { ParseQuery(json{{"items", items}}, "query"); }, "more than 64");
}

TEST(BoundaryQuery, ParsesAndRefusesConditions) {
  const AppendCondition empty = ParseCondition(json());
  EXPECT_FALSE(empty.fail_if_events_match);
  const AppendCondition full = ParseCondition(json::parse(
      R"({"fail_if_events_match": {"items": [{"tags": ["t"]}]}, "after": 7, "expected_versions": {"s": -1}})"));
  ASSERT_TRUE(full.fail_if_events_match);
  EXPECT_EQ(full.after, 7);
  EXPECT_EQ(full.expected_versions.at("s"), -1);
  ExpectInvalid([] { ParseCondition(json::parse(R"({"afer": 1})")); }, "\"afer\"");
  ExpectInvalid([] { ParseCondition(json::parse(R"({"after": "1"})")); }, "condition.after must be an integer");
  ExpectInvalid([] { ParseCondition(json::parse(R"({"after": -2})")); }, "condition.after must be between -1 and");
  ExpectInvalid([] { ParseCondition(json::parse(R"({"expected_versions": []})")); }, "expected_versions must be");
  ExpectInvalid([] { ParseCondition(json::parse(R"({"expected_versions": {"s": "1"}})")); }, "must be an integer");
  ExpectInvalid([] { ParseCondition(json::parse(R"({"expected_versions": {"s": -2}})")); }, "must be -1 to");
  ExpectInvalid([] { ParseCondition(json::parse(R"({"fail_if_events_match": []})")); },
                "condition.fail_if_events_match must be");
}

TEST(BoundaryQuery, SqlStartsTaggedItemsFromTheTagIndex) {
  const Query query = ParseQuery(json::parse(R"({"items": [{"types": ["A"], "tags": ["t", "u"]}, {"types": ["B"]}]})"),
                                 "query");
  const QuerySql sql = FirstMatchSql(query);
  EXPECT_EQ(sql.tags, (std::vector<std::string>{"t", "u"}));
  EXPECT_EQ(sql.types, (std::vector<std::string>{"A", "B"}));
  EXPECT_NE(sql.text.find("act.event_tags t JOIN act.events e ON e.id = t.id WHERE t.tag = $1[1]"), std::string::npos);
  EXPECT_NE(sql.text.find("x.tag = $1[2]"), std::string::npos);
  EXPECT_NE(sql.text.find("e.name = ANY ($2[1:1])"), std::string::npos);
  EXPECT_NE(sql.text.find("e.name = ANY ($2[2:2])"), std::string::npos);
  EXPECT_NE(sql.text.find(", 1 AS item FROM act.events e WHERE"), std::string::npos);
}

TEST(BoundaryLocks, WritersShareAndConditionsExclude) {
  BoundaryLockPlan plan;
  plan.AddEvent("Enrolled", {"course:c1", "student:s1"});
  ASSERT_TRUE(plan.AddCondition(ParseQuery(json::parse(R"({"items": [{"types": ["Enrolled"], "tags": ["course:c1"]}]})"),
                                           "q")));
  const std::vector<BoundaryLock> locks = plan.Locks();
  ASSERT_EQ(locks.size(), 3u);  // one per key, the condition's tag exclusive
  EXPECT_TRUE(std::is_sorted(locks.begin(), locks.end()));
  int exclusive = 0;
  for (const BoundaryLock& lock : locks) exclusive += lock.exclusive;
  EXPECT_EQ(exclusive, 1);
  EXPECT_TRUE(std::find(locks.begin(), locks.end(), TagLock("course:c1", true)) != locks.end());
  EXPECT_TRUE(std::find(locks.begin(), locks.end(), TypeLock("Enrolled", false)) != locks.end());
}

TEST(BoundaryLocks, TypeOnlyItemsLockTypesAndEmptyItemsLockNothing) {
  BoundaryLockPlan plan;
  ASSERT_TRUE(plan.AddCondition(ParseQuery(json::parse(R"({"items": [{"types": ["A", "B"]}]})"), "q")));
  EXPECT_EQ(plan.Locks().size(), 2u);
  EXPECT_NE(TagLock("A", true), TypeLock("A", true));
  EXPECT_FALSE(plan.AddCondition(ParseQuery(json::parse(R"({"items": [{}]})"), "q")));
}

}  // namespace
}  // namespace act::core
