#include "act/core/notify_payload.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace act::core {
namespace {

TEST(NotifyPayload, ListsEveryEvent) {
  const std::string payload = CommitNotifyPayload("order-1", {{7, "Placed"}, {8, "Shipped"}});
  EXPECT_EQ(payload, R"({"stream":"order-1","events":[{"id":7,"name":"Placed"},{"id":8,"name":"Shipped"}]})");
}

TEST(NotifyPayload, EscapesNames) {
  const auto parsed = nlohmann::json::parse(CommitNotifyPayload("a\"b", {{1, "x\\y"}}));
  EXPECT_EQ(parsed["stream"], "a\"b");
  EXPECT_EQ(parsed["events"][0]["name"], "x\\y");
}

TEST(NotifyPayload, FallsBackToTheLastIdWhenTooLong) {
  std::vector<std::string> names(200, std::string(100, 'n'));
  std::vector<EventRef> refs;
  for (std::size_t i = 0; i < names.size(); ++i) refs.push_back({static_cast<std::int64_t>(i + 1), names[i]});
  const std::string payload = CommitNotifyPayload("s", refs);
  EXPECT_LE(payload.size(), kMaxNotifyPayloadBytes);
  EXPECT_EQ(payload, R"({"stream":"s","last":200})");
}

}  // namespace
}  // namespace act::core
