#include <gtest/gtest.h>

#include "act/act.hpp"

namespace act {
namespace {

using namespace std::chrono;

TEST(Timestamps, RoundTripThroughIso8601) {
  const Timestamp time = sys_days{year{2025} / 1 / 31} + hours{23} + minutes{59} + seconds{58} + microseconds{7};
  EXPECT_EQ(to_iso8601(time), "2025-01-31T23:59:58.000007Z");
  EXPECT_EQ(parse_timestamp(to_iso8601(time)), time);
}

TEST(Timestamps, ParsesWhatPostgresRenders) {
  const Timestamp utc = sys_days{year{2024} / 2 / 29} + hours{12};
  EXPECT_EQ(parse_timestamp("2024-02-29T12:00:00+00:00"), utc);
  EXPECT_EQ(parse_timestamp("2024-02-29 12:00:00+00"), utc);
  EXPECT_EQ(parse_timestamp("2024-02-29T17:30:00.000000+05:30"), utc);
  EXPECT_EQ(parse_timestamp("2024-02-29T11:00:00.5-01"), utc + milliseconds{500});
}

TEST(Timestamps, RefusesTextWithoutAnOffset) {
  EXPECT_THROW(parse_timestamp("2024-02-29T12:00:00"), ValidationError);
  EXPECT_THROW(parse_timestamp("2024-02-30T12:00:00Z"), ValidationError);
  EXPECT_THROW(parse_timestamp("yesterday"), ValidationError);
  EXPECT_THROW(parse_timestamp("2024-02-29T12:00:00Zjunk"), ValidationError);
}

}  // namespace
}  // namespace act
