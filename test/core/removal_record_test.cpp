#include "act/core/removal_record.hpp"

#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <vector>

#include "act/core/errors.hpp"

namespace removal = act::core::removal;
using act::core::Hash;

namespace {

Hash Filled(std::uint8_t byte) {
  Hash hash;
  hash.fill(byte);
  return hash;
}

TEST(RemovalDigest, IsSha256OverPositionIdAndEntryBigEndian) {
  std::vector<std::uint8_t> bytes;
  const auto put = [&bytes](std::uint64_t value) {
    for (int i = 7; i >= 0; --i) bytes.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  };
  put(3);
  put(7);
  const Hash a = Filled(0xaa);
  bytes.insert(bytes.end(), a.begin(), a.end());
  put(0x0102030405060708ULL);
  put(9);
  const Hash b = Filled(0x01);
  bytes.insert(bytes.end(), b.begin(), b.end());
  Hash expected;
  SHA256(bytes.data(), bytes.size(), expected.data());

  removal::Digest digest;
  digest.Add(3, 7, a);
  digest.Add(0x0102030405060708ULL, 9, b);
  EXPECT_EQ(digest.Finish(), expected);
}

TEST(RemovalDigest, DependsOnEveryField) {
  const auto of = [](std::uint64_t position, std::int64_t id, std::uint8_t fill) {
    removal::Digest digest;
    digest.Add(position, id, Filled(fill));
    return digest.Finish();
  };
  EXPECT_NE(of(1, 2, 3), of(2, 2, 3));
  EXPECT_NE(of(1, 2, 3), of(1, 3, 3));
  EXPECT_NE(of(1, 2, 3), of(1, 2, 4));
}

TEST(RemovalRuns, MergeConsecutivePositions) {
  const std::vector<std::uint64_t> positions = {0, 1, 2, 5, 7, 8};
  const std::vector<removal::Run> runs = removal::RunsOf(positions);
  EXPECT_EQ(runs, (std::vector<removal::Run>{{0, 3}, {5, 6}, {7, 9}}));
  EXPECT_EQ(removal::CountOf(runs), 6u);
  EXPECT_EQ(removal::FormatMultirange(runs), "{[0,3),[5,6),[7,9)}");
  EXPECT_EQ(removal::ParseMultirange("{[0,3),[5,6),[7,9)}", "positions"), runs);
  EXPECT_EQ(removal::FormatMultirange({}), "{}");
  EXPECT_TRUE(removal::ParseMultirange("{}", "positions").empty());
}

TEST(RemovalRuns, RefuseWhatPostgresWouldNotPrint) {
  for (const char* text : {"", "{", "[0,3)", "{[0,3)", "{[3,3)}", "{[4,3)}", "{[0,3),[3,5)}", "{[0,3),[1,5)}",
                           "{[0,3)}x", "{(0,3]}", "{[a,3)}", "{[0,3) }", "{[-1,3)}"})
    EXPECT_THROW(removal::ParseMultirange(text, "positions"), act::core::ValidationError) << text;
}

TEST(RemovalStatement, RoundTrips) {
  removal::Statement statement{5, Filled(0xab), 10, 40, false};
  const std::string text = removal::FormatStatement(statement);
  EXPECT_EQ(text, "{\"removed\":5,\"digest\":\"" + act::core::ToHex(Filled(0xab)) + "\",\"first_position\":10,\"last_position\":40}");
  const removal::Statement parsed = removal::ParseStatement(text);
  EXPECT_EQ(parsed.removed, 5u);
  EXPECT_EQ(parsed.digest, Filled(0xab));
  EXPECT_EQ(parsed.first_position, 10u);
  EXPECT_EQ(parsed.last_position, 40u);
  EXPECT_FALSE(parsed.before_upgrade);
  statement.before_upgrade = true;
  EXPECT_TRUE(removal::ParseStatement(removal::FormatStatement(statement)).before_upgrade);
}

TEST(RemovalStatement, RefusesOneBadFieldAtATime) {
  const std::string digest = "\"" + act::core::ToHex(Filled(0x11)) + "\"";
  for (const std::string& text : {
           std::string("[]"),
           std::string("not json"),
           "{\"digest\":" + digest + ",\"first_position\":0,\"last_position\":0}",
           "{\"removed\":-1,\"digest\":" + digest + ",\"first_position\":0,\"last_position\":0}",
           "{\"removed\":\"1\",\"digest\":" + digest + ",\"first_position\":0,\"last_position\":0}",
           std::string("{\"removed\":1,\"first_position\":0,\"last_position\":0}"),
           std::string("{\"removed\":1,\"digest\":\"abc\",\"first_position\":0,\"last_position\":0}"),
           "{\"removed\":1,\"digest\":\"" + std::string(64, 'A') + "\",\"first_position\":0,\"last_position\":0}",
           "{\"removed\":1,\"digest\":" + digest + ",\"last_position\":0}",
           "{\"removed\":1,\"digest\":" + digest + ",\"first_position\":0}",
           "{\"removed\":1,\"digest\":" + digest + ",\"first_position\":0,\"last_position\":0,\"extra\":1}",
           "{\"removed\":1,\"digest\":" + digest + ",\"first_position\":0,\"last_position\":0,\"before_upgrade\":1}"})
    EXPECT_THROW(removal::ParseStatement(text), act::core::ValidationError) << text;
}

}  // namespace
