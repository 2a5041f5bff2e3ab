// Event objects read from their jsonb text without a DOM of the envelope
// (store/event_json): what act.claim_events and act.query_stats send.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "act/act.hpp"
#include "store/event_json.hpp"

namespace act::store_rows {
namespace {

using nlohmann::json;

// An event as the server renders it: jsonb's key order (shorter keys first), no hash.
std::string rendered(const std::string& data, const std::string& extra = "") {
  return R"({"id": 7, )" + extra + R"("data": )" + data +
         R"(, "meta": {"causation": {"action": {"name": "go"}}}, "name": "Went", "stream": "s-1", "created": "2026-01-02T03:04:05.000006+00:00", "version": 3})";
}

TEST(EventJson, ReadsEveryFieldOfAnEvent) {
  const Committed event =
      committed_from_json(rendered(R"({"by": 1})", R"("pii": {"email": "a@b"}, "tags": ["t1", "t2"], )"));
  EXPECT_EQ(event.id, 7);
  EXPECT_EQ(event.stream, "s-1");
  EXPECT_EQ(event.version, 3);
  EXPECT_EQ(event.name, "Went");
  EXPECT_EQ(event.data, json({{"by", 1}}));
  EXPECT_EQ(event.meta, json::parse(R"({"causation": {"action": {"name": "go"}}})"));
  ASSERT_TRUE(event.pii.has_value());
  EXPECT_EQ(*event.pii, json({{"email", "a@b"}}));
  EXPECT_EQ(event.tags, (std::vector<std::string>{"t1", "t2"}));
  EXPECT_EQ(event.created, parse_timestamp("2026-01-02T03:04:05.000006Z"));
  EXPECT_TRUE(event.hash.empty());
}

TEST(EventJson, AbsentOrNullPiiAndAbsentTagsLeaveThemEmpty) {
  EXPECT_FALSE(committed_from_json(rendered("{}")).pii.has_value());
  EXPECT_FALSE(committed_from_json(rendered("{}", R"("pii": null, )")).pii.has_value());
  EXPECT_TRUE(committed_from_json(rendered("{}")).tags.empty());
}

// data is whatever the application committed: the same tree json::parse builds, types included.
TEST(EventJson, DataIsTheTreeJsonParseBuilds) {
  for (const std::string data :
       {R"({"by": 1})", R"({"n": -5, "u": 18446744073709551615, "f": 2.5, "e": 1e300})",
        R"({"a": [1, [2, [3, {"deep": [true, false, null]}]], {}], "b": {"c": {"d": "x"}}})", R"([{"x": 1}, {"x": 2}])",
        R"("just text")", "42", "null", "[]", R"({"": "empty key"})",
        R"({"esc": "quote \" slash \\ tab \t unicode \u00e9 \ud83d\ude00"})"}) {
    const Committed event = committed_from_json(rendered(data));
    const json expected = json::parse(data);
    EXPECT_EQ(event.data, expected) << data;
    EXPECT_EQ(event.data.type(), expected.type()) << data;
    if (expected.is_object() && expected.contains("n")) {
      EXPECT_EQ(event.data["n"].type(), json::value_t::number_integer);
      EXPECT_EQ(event.data["u"].type(), json::value_t::number_unsigned);
      EXPECT_EQ(event.data["f"].type(), json::value_t::number_float);
    }
    EXPECT_EQ(event.name, "Went") << data;  // the envelope resumes after the tree
    EXPECT_EQ(event.version, 3) << data;
  }
}

TEST(EventJson, KeysTheClientDoesNotReadAreSkippedWhateverTheirShape) {
  const Committed event = committed_from_json(
      rendered(R"({"by": 2})", R"("hash": "\\x00ff", "later": {"stream": "not-this", "id": [1, {"version": 9}]}, )"));
  EXPECT_EQ(event.stream, "s-1");
  EXPECT_EQ(event.id, 7);
  EXPECT_EQ(event.version, 3);
  EXPECT_EQ(event.data, json({{"by", 2}}));
}

TEST(EventJson, APageKeepsItsEventsInOrder) {
  EXPECT_TRUE(committed_list_from_json("[]").empty());
  const std::vector<Committed> page = committed_list_from_json("[" + rendered(R"({"i": 0})") + ", " +
                                                               rendered(R"({"i": 1})", R"("tags": ["only-second"], )") +
                                                               ", " + rendered(R"({"i": 2})", R"("pii": [1], )") + "]");
  ASSERT_EQ(page.size(), 3u);
  for (std::size_t i = 0; i < page.size(); ++i) EXPECT_EQ(page[i].data, json({{"i", i}}));
  EXPECT_TRUE(page[0].tags.empty());  // one event's fields never carry into the next
  EXPECT_EQ(page[1].tags, std::vector<std::string>{"only-second"});
  EXPECT_FALSE(page[1].pii.has_value());
  EXPECT_EQ(page[2].pii, json::array({1}));
  EXPECT_TRUE(page[2].tags.empty());
}

// One bad input per line: each is refused as an act::Error, none is read as an event.
TEST(EventJson, RefusesWhatIsNotAnEvent) {
  EXPECT_THROW(committed_from_json(""), Error);
  EXPECT_THROW(committed_from_json("{"), Error);
  EXPECT_THROW(committed_from_json(rendered("{}") + " trailing"), Error);
  EXPECT_THROW(committed_from_json("[]"), Error);
  EXPECT_THROW(committed_from_json("7"), Error);
  EXPECT_THROW(committed_from_json("{}"), Error);
  EXPECT_THROW(committed_from_json(R"({"id": 1, "data": {}, "meta": {}, "name": "n", "stream": "s", "version": 0})"),
               Error);
  EXPECT_THROW(
      committed_from_json(
          R"({"id": "1", "data": {}, "meta": {}, "name": "n", "stream": "s", "created": "2026-01-02T03:04:05Z", "version": 0})"),
      Error);
  EXPECT_THROW(
      committed_from_json(
          R"({"id": 1, "data": {}, "meta": {}, "name": 5, "stream": "s", "created": "2026-01-02T03:04:05Z", "version": 0})"),
      Error);
  EXPECT_THROW(
      committed_from_json(
          R"({"id": 1, "data": {}, "meta": {}, "name": "n", "stream": ["s"], "created": "2026-01-02T03:04:05Z", "version": 0})"),
      Error);
  EXPECT_THROW(
      committed_from_json(
          R"({"id": 1, "data": {}, "meta": {}, "name": "n", "stream": "s", "created": "2026-01-02T03:04:05Z", "version": 0.5})"),
      Error);
  EXPECT_THROW(committed_from_json(rendered("{}", R"("tags": [1], )")), Error);
  EXPECT_THROW(committed_from_json(rendered("{}", R"("tags": "t", )")), Error);
  EXPECT_THROW(committed_from_json(
                   R"({"id": 1, "data": {}, "meta": {}, "name": "n", "stream": "s", "created": "noon", "version": 0})"),
               ValidationError);
  EXPECT_THROW(committed_list_from_json(rendered("{}")), Error);
  EXPECT_THROW(committed_list_from_json("[1]"), Error);
  EXPECT_THROW(committed_list_from_json("[[" + rendered("{}") + "]]"), Error);
  EXPECT_THROW(committed_list_from_json("[" + rendered("{}") + ", {}]"), Error);
}

}  // namespace
}  // namespace act::store_rows
