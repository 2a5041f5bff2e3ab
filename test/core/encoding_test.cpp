#include "act/core/encoding.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace act::core {
namespace {

std::string B64(std::string_view text) {
  return Base64Encode(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

std::optional<std::string> Unb64(std::string_view text) {
  const auto bytes = Base64Decode(text);
  if (!bytes) return std::nullopt;
  return std::string(bytes->begin(), bytes->end());
}

TEST(Encoding, HexHashes) {
  const std::string lower = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  std::string upper = lower;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ASSERT_TRUE(HashFromHex(lower));
  EXPECT_EQ(ToHex(*HashFromHex(lower)), lower);
  EXPECT_EQ(HashFromHex(upper), HashFromHex(lower));
  EXPECT_FALSE(HashFromHex(lower.substr(2)));
  EXPECT_FALSE(HashFromHex(lower + "00"));
  EXPECT_FALSE(HashFromHex(""));
  EXPECT_FALSE(HashFromHex("g" + lower.substr(1)));
  EXPECT_FALSE(HashFromHex(" " + lower.substr(1)));
}

TEST(Encoding, Base64Rfc4648Vectors) {
  EXPECT_EQ(B64(""), "");
  EXPECT_EQ(B64("f"), "Zg==");
  EXPECT_EQ(B64("fo"), "Zm8=");
  EXPECT_EQ(B64("foo"), "Zm9v");
  EXPECT_EQ(B64("foob"), "Zm9vYg==");
  EXPECT_EQ(B64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(B64("foobar"), "Zm9vYmFy");
  for (const char* text : {"", "f", "fo", "foo", "foob", "fooba", "foobar"}) EXPECT_EQ(Unb64(B64(text)), text);
  const std::string binary("\x00\xff\xfe\x80\x7f", 5);
  EXPECT_EQ(Unb64(B64(binary)), binary);
}

TEST(Encoding, Base64RejectsNonCanonicalText) {
  EXPECT_FALSE(Unb64("Zg"));        // no padding
  EXPECT_FALSE(Unb64("Zh=="));      // unused bits set
  EXPECT_FALSE(Unb64("Zm9="));      // unused bits set
  EXPECT_FALSE(Unb64("Zg=a"));      // padding then data
  EXPECT_FALSE(Unb64("Zg==Zg=="));  // padding inside
  EXPECT_FALSE(Unb64("Zm9v\n"));
  EXPECT_FALSE(Unb64("Zm-v"));  // URL alphabet
  EXPECT_FALSE(Unb64("===="));
}

}  // namespace
}  // namespace act::core
