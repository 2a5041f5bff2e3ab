#include "act/core/validation.hpp"

#include <gtest/gtest.h>

#include <string>

#include "act/core/errors.hpp"
#include "act/core/text.hpp"

namespace act::core {
namespace {

std::string MessageOf(auto call) {
  try {
    call();
  } catch (const ValidationError& error) {
    EXPECT_STREQ(error.code(), "22023");
    return error.what();
  }
  ADD_FAILURE() << "no ValidationError";
  return {};
}

TEST(Validation, StreamNames) {
  EXPECT_NO_THROW(ValidateStreamName("a"));
  EXPECT_NO_THROW(ValidateStreamName(std::string(kMaxStreamBytes, 's')));
  EXPECT_EQ(MessageOf([] { ValidateStreamName(""); }), "stream must not be empty");
  const std::string message = MessageOf([] { ValidateStreamName(std::string(kMaxStreamBytes + 1, 's')); });
  EXPECT_NE(message.find("longer than 1000 bytes"), std::string::npos) << message;
  EXPECT_LT(message.size(), 400u) << "long names are cut in messages";
}

TEST(Validation, EventShapes) {
  EventShape good;
  good.name_kind = JsonKind::kString;
  good.name = "Placed";
  EXPECT_NO_THROW(ValidateEvent("s", 0, good));
  good.data_kind = JsonKind::kObject;
  good.pii_kind = JsonKind::kNull;
  EXPECT_NO_THROW(ValidateEvent("s", 0, good));
  good.name = kSnapshotEvent;
  EXPECT_NO_THROW(ValidateEvent("s", 0, good)) << "clients commit snapshots like events";

  auto with = [](auto mutate) {
    EventShape shape;
    shape.name_kind = JsonKind::kString;
    shape.name = "Placed";
    mutate(shape);
    return MessageOf([&] { ValidateEvent("s", 3, shape); });
  };
  EXPECT_EQ(with([](EventShape& s) { s.element = JsonKind::kString; }),
            "event 3 of stream \"s\" must be a JSON object, not a string");
  EXPECT_EQ(with([](EventShape& s) { s.name_kind = JsonKind::kAbsent; }), "event 3 of stream \"s\" has no \"name\"");
  EXPECT_EQ(with([](EventShape& s) { s.name_kind = JsonKind::kNumber; }),
            "event 3 of stream \"s\": \"name\" must be a string, not a number");
  EXPECT_EQ(with([](EventShape& s) { s.name = ""; }), "event 3 of stream \"s\": \"name\" must not be empty");
  static const std::string long_name(kMaxEventNameBytes + 1, 'n');
  EXPECT_NE(with([](EventShape& s) { s.name = long_name; }).find("longer than 200 bytes"), std::string::npos);
  EXPECT_NE(with([](EventShape& s) { s.name = kTombstoneEvent; }).find("reserved"), std::string::npos);
  EXPECT_EQ(with([](EventShape& s) { s.data_kind = JsonKind::kArray; }),
            "event 3 of stream \"s\": \"data\" must be a JSON object, not an array");
  EXPECT_EQ(with([](EventShape& s) { s.data_kind = JsonKind::kNull; }),
            "event 3 of stream \"s\": \"data\" must be a JSON object, not null");
  EXPECT_NE(with([](EventShape& s) { s.pii_kind = JsonKind::kString; }).find("\"pii\" must be a JSON object or null"),
            std::string::npos);
}

TEST(Validation, ExpectedVersionAndMeta) {
  EXPECT_NO_THROW(ValidateExpectedVersion("s", std::nullopt));
  EXPECT_NO_THROW(ValidateExpectedVersion("s", -1));
  EXPECT_NO_THROW(ValidateExpectedVersion("s", 0));
  EXPECT_EQ(MessageOf([] { ValidateExpectedVersion("s", -2); }),
            "expected_version for stream \"s\" must be -1 to 2147483647, not -2");
  EXPECT_EQ(MessageOf([] { ValidateExpectedVersion("s", 2147483648LL); }),
            "expected_version for stream \"s\" must be -1 to 2147483647, not 2147483648");
  EXPECT_NO_THROW(ValidateMeta("s", JsonKind::kObject));
  EXPECT_EQ(MessageOf([] { ValidateMeta("s", JsonKind::kArray); }),
            "meta for stream \"s\" must be a JSON object, not an array");
}

TEST(Validation, IdempotencyKey) {
  EXPECT_NO_THROW(ValidateIdempotencyKey("s", JsonKind::kString, "order-42"));
  EXPECT_NO_THROW(ValidateIdempotencyKey("s", JsonKind::kString, std::string(kMaxIdempotencyKeyBytes, 'k')));
  EXPECT_EQ(MessageOf([] { ValidateIdempotencyKey("s", JsonKind::kNumber, {}); }),
            "meta.idempotency_key for stream \"s\" must be a string, not a number");
  EXPECT_EQ(MessageOf([] { ValidateIdempotencyKey("s", JsonKind::kString, ""); }),
            "meta.idempotency_key for stream \"s\" must not be empty");
  EXPECT_EQ(MessageOf([] { ValidateIdempotencyKey("s", JsonKind::kString, std::string(201, 'k')); }),
            "meta.idempotency_key for stream \"s\" takes 201 bytes: the limit is 200 bytes");
}

TEST(Validation, PayloadSizes) {
  EXPECT_NO_THROW(ValidateCommitSize("s", kMaxPayloadBytes - 2, 2));
  EXPECT_EQ(MessageOf([] { ValidateCommitSize("s", kMaxPayloadBytes, 1); }),
            "events and meta for stream \"s\" take 16777217 bytes: the limit of one commit is 16777216 bytes");
  EXPECT_NO_THROW(ValidateArgumentSize("leases", kMaxPayloadBytes));
  EXPECT_EQ(MessageOf([] { ValidateArgumentSize("leases", kMaxPayloadBytes + 1); }),
            "leases takes 16777217 bytes: the limit is 16777216 bytes");
}

TEST(Errors, ConflictMessagesAreExact) {
  EXPECT_STREQ(ConcurrencyError("order-1", 3, 5).what(),
               "concurrency conflict on stream \"order-1\": expected version 3, actual version 5");
  EXPECT_STREQ(ConcurrencyError("order-1", 5).what(),
               "concurrency conflict on stream \"order-1\": expected version any, actual version 5");
  EXPECT_STREQ(ConcurrencyError("x", 0, 1).code(), "40001");
  EXPECT_STREQ(ClosedStreamError("order-1").what(), "stream \"order-1\" is closed");
  EXPECT_STREQ(ClosedStreamError("order-1").code(), "55000");
}

TEST(Text, QuotedCutsOnUtf8Boundaries) {
  EXPECT_EQ(Quoted("abc"), "\"abc\"");
  const std::string euro = "\xE2\x82\xAC";  // 3 bytes
  std::string text;
  for (int i = 0; i < 100; ++i) text += euro;
  const std::string quoted = Quoted(text, 10);
  EXPECT_EQ(quoted, "\"" + euro + euro + euro + "...\" (300 bytes)");
}

}  // namespace
}  // namespace act::core
