#include "act/core/event_hash.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace act::core {
namespace {

// The golden vectors of docs/hash-chain.md, computed independently of this code.
EventFields PlacedEvent() {
  EventFields fields;
  fields.stream = "order-1";
  fields.version = 0;
  fields.name = "Placed";
  fields.data_json = R"({"qty": 2, "sku": "A1"})";
  fields.meta_json = R"({"correlation": "c-1"})";
  fields.created_unix_micros = 1767225600000000;  // 2026-01-01T00:00:00Z
  return fields;
}

std::string Hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 0x0F]);
  }
  return hex;
}

TEST(EventHash, EncodingMatchesTheDocumentedLayout) {
  EXPECT_EQ(Hex(EncodeEvent(PlacedEvent())),
            "41435401000000076f726465722d31000000000000000000000006506c61636564000000177b22717479223a20322c2022736b"
            "75223a20224131227d000000167b22636f7272656c6174696f6e223a2022632d31227d0006474846204000");
}

// A tagged event: encoding version 2, the tags between meta and created
// (docs/hash-chain.md); an untagged event keeps version 1, as above.
TEST(EventHash, TaggedEncodingMatchesTheDocumentedLayout) {
  const std::string_view tags[] = {"course:c1", "student:s1"};
  EventFields fields = PlacedEvent();
  fields.tags = tags;
  EXPECT_EQ(Hex(EncodeEvent(fields)),
            "41435402000000076f726465722d31000000000000000000000006506c61636564000000177b22717479223a20322c2022736b"
            "75223a20224131227d000000167b22636f7272656c6174696f6e223a2022632d31227d0000000200000009636f757273653a6331"
            "0000000a73747564656e743a73310006474846204000");
  EventHasher hasher;
  EXPECT_EQ(ToHex(hasher.Compute(kZeroHash, fields)), "cf4409aba6199734b93702bec5c9452a57149465a675c30ef0881918f267baf6");
}

TEST(EventHash, TagsAndTheirOrderChangeTheHash) {
  EventHasher hasher;
  EventFields fields = PlacedEvent();
  const Hash untagged = hasher.Compute(kZeroHash, fields);
  const std::string_view one[] = {"a"};
  const std::string_view ab[] = {"a", "b"};
  const std::string_view ba[] = {"b", "a"};
  fields.tags = one;
  const Hash tagged_one = hasher.Compute(kZeroHash, fields);
  fields.tags = ab;
  const Hash tagged_ab = hasher.Compute(kZeroHash, fields);
  fields.tags = ba;
  const Hash tagged_ba = hasher.Compute(kZeroHash, fields);
  EXPECT_NE(untagged, tagged_one);
  EXPECT_NE(tagged_one, tagged_ab);
  EXPECT_NE(tagged_ab, tagged_ba);
}

TEST(EventHash, GenesisVector) {
  EventHasher hasher;
  EXPECT_EQ(ToHex(hasher.Compute(kZeroHash, PlacedEvent())),
            "6d99803e26d5ec7405fdd278877d611321f8fdbe84f7d1e4f9da4b61a9bcf9d8");
}

TEST(EventHash, ChainedVector) {
  EventHasher hasher;
  const Hash first = hasher.Compute(kZeroHash, PlacedEvent());
  EventFields shipped;
  shipped.stream = "order-1";
  shipped.version = 1;
  shipped.name = "Shipped";
  shipped.data_json = "{}";
  shipped.meta_json = "{}";
  shipped.created_unix_micros = 1767225600000001;
  EXPECT_EQ(ToHex(hasher.Compute(first, shipped)),
            "93e5867fe4bf5371210522d253e7c62313dc908a549a0f5c87532a9453893c56");
}

TEST(EventHash, DeterministicAcrossHashersAndCalls) {
  EventHasher one;
  EventHasher two;
  const Hash a = one.Compute(kZeroHash, PlacedEvent());
  EXPECT_EQ(a, one.Compute(kZeroHash, PlacedEvent()));
  EXPECT_EQ(a, two.Compute(kZeroHash, PlacedEvent()));
}

TEST(EventHash, EveryFieldChangesTheHash) {
  EventHasher hasher;
  const Hash base = hasher.Compute(kZeroHash, PlacedEvent());
  auto changed = [&](auto mutate) {
    EventFields fields = PlacedEvent();
    mutate(fields);
    return hasher.Compute(kZeroHash, fields);
  };
  EXPECT_NE(base, changed([](EventFields& f) { f.stream = "order-2"; }));
  EXPECT_NE(base, changed([](EventFields& f) { f.version = 1; }));
  EXPECT_NE(base, changed([](EventFields& f) { f.name = "Placed2"; }));
  EXPECT_NE(base, changed([](EventFields& f) { f.data_json = R"({"qty": 3, "sku": "A1"})"; }));
  EXPECT_NE(base, changed([](EventFields& f) { f.meta_json = "{}"; }));
  EXPECT_NE(base, changed([](EventFields& f) { f.created_unix_micros += 1; }));
  Hash prev{};
  prev[31] = 1;
  EXPECT_NE(base, hasher.Compute(prev, PlacedEvent()));
}

TEST(EventHash, LengthPrefixesKeepFieldBoundaries) {
  // Moving bytes from one field to the next must change the encoding.
  EventFields a = PlacedEvent();
  EventFields b = PlacedEvent();
  a.stream = "ab";
  a.name = "c";
  b.stream = "a";
  b.name = "bc";
  EXPECT_NE(EncodeEvent(a), EncodeEvent(b));
}

TEST(EventHash, FieldsWrittenInPlaceHashLikeWholeFields) {
  const EventFields placed = PlacedEvent();
  EventHasher hasher;
  Preimage preimage;
  // Twice: the second run reuses the buffer of the first.
  for (int run = 0; run < 2; ++run) {
    preimage.Start(kZeroHash, placed.stream, placed.version, placed.name);
    ByteBuffer& data = preimage.BeginField();
    data.Append(placed.data_json.substr(0, 5));
    char* at = data.Reserve(100);
    memcpy(at, placed.data_json.data() + 5, placed.data_json.size() - 5);
    data.Commit(at + placed.data_json.size() - 5);
    preimage.EndField();
    preimage.Field(placed.meta_json);
    preimage.Finish(placed.created_unix_micros);
    EXPECT_EQ(preimage.bytes().substr(kZeroHash.size()), EncodeEvent(placed));
    EXPECT_EQ(ToHex(hasher.Digest(preimage)), "6d99803e26d5ec7405fdd278877d611321f8fdbe84f7d1e4f9da4b61a9bcf9d8");
  }
}

TEST(EventHash, LargeFieldsGrowTheBuffer) {
  EventFields big = PlacedEvent();
  const std::string data(100000, 'x');
  big.data_json = data;
  const std::string encoded = EncodeEvent(big);
  EXPECT_EQ(encoded.size(), EncodeEvent(PlacedEvent()).size() - PlacedEvent().data_json.size() + data.size());
  EXPECT_NE(encoded.find(data), std::string::npos);
}

TEST(ByteBuffer, KeepsBytesAcrossGrowthAndClear) {
  ByteBuffer buffer;
  std::string expected;
  for (int i = 0; i < 5000; ++i) {
    buffer.Push(static_cast<char>('a' + i % 26));
    expected.push_back(static_cast<char>('a' + i % 26));
  }
  EXPECT_EQ(buffer.view(), expected);
  buffer.Clear();
  EXPECT_EQ(buffer.size(), 0u);
  buffer.Append("abc");
  EXPECT_EQ(buffer.view(), "abc");
}

}  // namespace
}  // namespace act::core
