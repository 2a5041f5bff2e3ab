#include "act/core/stream_selector.hpp"

#include <gtest/gtest.h>

#include "act/core/errors.hpp"

namespace act::core {
namespace {

using nlohmann::json;

TEST(StreamSelector, ArrayForm) {
  const StreamSelector selector = ParseSelector(json::parse(R"(["a", "b"])"), SelectorUse::kAdmin);
  ASSERT_TRUE(selector.streams);
  EXPECT_EQ(selector.streams->size(), 2u);
  EXPECT_EQ(SelectorPredicate(selector), "true AND s.stream = ANY ($1)");
}

TEST(StreamSelector, FilterForm) {
  const StreamSelector selector = ParseSelector(
      json::parse(R"({"stream": "^a", "source": "s", "source_exact": true, "blocked": false, "lane": "x"})"),
      SelectorUse::kAdmin);
  EXPECT_EQ(SelectorPredicate(selector),
            "true AND s.stream COLLATE \"C\" ~ $2 AND s.source = $3 AND s.blocked = $4 AND s.lane = $5");
  EXPECT_EQ(selector.Patterns(), std::vector<std::string>{"^a"});
}

TEST(StreamSelector, EmptyFilterMatchesEverything) {
  EXPECT_EQ(SelectorPredicate(ParseSelector(json::object(), SelectorUse::kAdmin)), "true");
}

TEST(StreamSelector, SourceMatchesOnlyForQueryStreams) {
  const StreamSelector query = ParseSelector(json::parse(R"({"source_matches": ["x"]})"), SelectorUse::kQueryStreams);
  EXPECT_TRUE(query.source_matches);
  EXPECT_FALSE(ParseSelector(json::parse(R"({"source_matches": []})"), SelectorUse::kQueryStreams).source_matches);
  EXPECT_THROW(ParseSelector(json::parse(R"({"source_matches": ["x"]})"), SelectorUse::kAdmin), ValidationError);
  EXPECT_THROW(ParseSelector(json::parse(R"(["a"])"), SelectorUse::kQueryStreams), ValidationError);
}

TEST(StreamSelector, KeysSeparateShapes) {
  const auto key = [](const char* text) { return ParseSelector(json::parse(text), SelectorUse::kAdmin).Key(); };
  EXPECT_NE(key(R"({"stream": "a"})"), key(R"({"stream": "a", "stream_exact": true})"));
  EXPECT_NE(key(R"(["a"])"), key(R"({})"));
  EXPECT_EQ(key(R"({"lane": "a"})"), key(R"({"lane": "b"})"));
}

TEST(StreamSelector, StatementsKeepTheirSemantics) {
  const StreamSelector all = ParseSelector(json::object(), SelectorUse::kAdmin);
  EXPECT_NE(SelectorStatementSql(SelectorStatement::kUnblock, all).find("AND s.blocked"), std::string::npos);
  const std::string release = SelectorStatementSql(SelectorStatement::kRelease, all);
  EXPECT_NE(release.find("AND s.leased_by IS NOT NULL"), std::string::npos) << "release counts only held leases";
  for (const char* kept : {" at =", "retry", "blocked =", "error", "deferred_at", "correlated_at"})
    EXPECT_EQ(release.find(kept), std::string::npos) << "release keeps" << kept;
  EXPECT_NE(SelectorStatementSql(SelectorStatement::kPrioritize, all).find("s.priority <> $7"), std::string::npos);
  EXPECT_EQ(SelectorStatementSql(SelectorStatement::kReset, all).find("correlated_at"), std::string::npos)
      << "reset keeps the work mark";
  EXPECT_NE(SelectorStatementSql(SelectorStatement::kQueryStreamsAfter, all).find("s.stream COLLATE \"C\" > $7"),
            std::string::npos);
}

}  // namespace
}  // namespace act::core
