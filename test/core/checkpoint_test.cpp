#include "act/core/checkpoint.hpp"

#include <gtest/gtest.h>

#include <string>

#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "act/core/merkle.hpp"

namespace act::core {
namespace {

TEST(Checkpoint, TheSpecExample) {
  const std::string text = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
  const Checkpoint checkpoint = ParseCheckpoint(text);
  EXPECT_EQ(checkpoint.origin, "example.com/behind-the-sofa");
  EXPECT_EQ(checkpoint.size, 20852163u);
  EXPECT_EQ(Base64Encode(checkpoint.root), "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=");
  EXPECT_TRUE(checkpoint.extensions.empty());
  EXPECT_EQ(FormatCheckpoint(checkpoint), text);
}

TEST(Checkpoint, RoundTrips) {
  for (std::uint64_t size : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{70000}, UINT64_MAX}) {
    Checkpoint checkpoint{"pg_act/orders", size, merkle::LeafHash(Hash{}), {}};
    if (size == 70000) checkpoint.extensions = {"an extension", "and another"};
    const std::string text = FormatCheckpoint(checkpoint);
    EXPECT_EQ(text.back(), '\n');
    EXPECT_EQ(ParseCheckpoint(text), checkpoint) << text;
    EXPECT_EQ(FormatCheckpoint(ParseCheckpoint(text)), text);
  }
  const Checkpoint empty{"pg_act/db", 0, merkle::EmptyRoot(), {}};
  EXPECT_EQ(FormatCheckpoint(empty), "pg_act/db\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n");
}

TEST(Checkpoint, FormatRefusesLinesThatWouldNotParse) {
  EXPECT_THROW(FormatCheckpoint({"", 1, Hash{}, {}}), ValidationError);
  EXPECT_THROW(FormatCheckpoint({"two\nlines", 1, Hash{}, {}}), ValidationError);
  EXPECT_THROW(FormatCheckpoint({"origin", 1, Hash{}, {""}}), ValidationError);
  EXPECT_THROW(FormatCheckpoint({"origin", 1, Hash{}, {"a\nb"}}), ValidationError);
}

TEST(Checkpoint, ParseRejectsMalformedText) {
  const std::string root = "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=";
  const auto rejects = [](const std::string& text, const std::string& fragment) {
    try {
      ParseCheckpoint(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
      EXPECT_STREQ(e.code(), sqlstate::kInvalidParameterValue);
    }
  };
  rejects("", "empty");
  rejects("o\n1\n" + root, "newline");
  rejects("o\n1\n", "3");
  rejects("o\n01\n" + root + "\n", "leading zero");
  rejects("o\n+1\n" + root + "\n", "decimal");
  rejects("o\n1 \n" + root + "\n", "decimal");
  rejects("o\n18446744073709551616\n" + root + "\n", "out of range");
  rejects("o\n1\n" + root.substr(0, 40) + "\n", "32");
  rejects("o\n1\n" + root.substr(1) + "\n", "base64");
  rejects("o\n1\nnot base64!\n", "base64");
  rejects("\n1\n" + root + "\n", "line 1");
  rejects("o\n1\n" + root + "\n\n", "line 4");
  rejects("o\n1\n" + root + "\n\n— o sig\n", "line 4");  // a signed note: the body only
  EXPECT_EQ(ParseCheckpoint("o\n18446744073709551615\n" + root + "\n").size, UINT64_MAX);
}

}  // namespace
}  // namespace act::core
