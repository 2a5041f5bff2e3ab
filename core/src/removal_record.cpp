#include "act/core/removal_record.hpp"

#include <openssl/evp.h>

#include <charconv>
#include <nlohmann/json.hpp>
#include <set>

#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"

namespace act::core::removal {

struct Digest::Context {
  struct Free {
    void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
  };
  std::unique_ptr<EVP_MD_CTX, Free> md{EVP_MD_CTX_new()};
};

Digest::Digest() : context_(std::make_unique<Context>()) {
  if (!context_->md || EVP_DigestInit_ex(context_->md.get(), EVP_sha256(), nullptr) != 1)
    throw SqlError(sqlstate::kInternalError, "SHA-256 is not available");
}
Digest::Digest(Digest&&) noexcept = default;
Digest& Digest::operator=(Digest&&) noexcept = default;
Digest::~Digest() = default;

void Digest::Add(std::uint64_t position, std::int64_t id, const Hash& entry) {
  std::uint8_t bytes[16 + sizeof(Hash)];
  const auto unsigned_id = static_cast<std::uint64_t>(id);
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<std::uint8_t>(position >> (56 - 8 * i));
    bytes[8 + i] = static_cast<std::uint8_t>(unsigned_id >> (56 - 8 * i));
  }
  std::copy(entry.begin(), entry.end(), bytes + 16);
  EVP_DigestUpdate(context_->md.get(), bytes, sizeof bytes);
}

Hash Digest::Finish() {
  Hash hash{};
  unsigned length = 0;
  if (EVP_DigestFinal_ex(context_->md.get(), hash.data(), &length) != 1 || length != hash.size())
    throw SqlError(sqlstate::kInternalError, "SHA-256 failed");
  return hash;
}

std::vector<Run> RunsOf(std::span<const std::uint64_t> increasing) {
  std::vector<Run> runs;
  for (const std::uint64_t position : increasing) {
    if (!runs.empty() && runs.back().end == position)
      ++runs.back().end;
    else
      runs.push_back({position, position + 1});
  }
  return runs;
}

std::uint64_t CountOf(std::span<const Run> runs) {
  std::uint64_t count = 0;
  for (const Run& run : runs) count += run.end - run.begin;
  return count;
}

std::string FormatMultirange(std::span<const Run> runs) {
  std::string text = "{";
  for (const Run& run : runs) {
    if (text.size() > 1) text += ',';
    text += '[' + std::to_string(run.begin) + ',' + std::to_string(run.end) + ')';
  }
  return text + '}';
}

namespace {

std::uint64_t ReadNumber(std::string_view& text, std::string_view what) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data())
    throw ValidationError(std::string(what) + " is not a multirange of positions");
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

void Expect(std::string_view& text, char c, std::string_view what) {
  if (text.empty() || text.front() != c) throw ValidationError(std::string(what) + " is not a multirange of positions");
  text.remove_prefix(1);
}

}  // namespace

std::vector<Run> ParseMultirange(std::string_view text, std::string_view what) {
  std::vector<Run> runs;
  Expect(text, '{', what);
  while (!text.empty() && text.front() != '}') {
    if (!runs.empty()) Expect(text, ',', what);
    Expect(text, '[', what);
    Run run;
    run.begin = ReadNumber(text, what);
    Expect(text, ',', what);
    run.end = ReadNumber(text, what);
    Expect(text, ')', what);
    if (run.end <= run.begin || (!runs.empty() && run.begin <= runs.back().end))
      throw ValidationError(std::string(what) + " has runs that are empty, overlap or touch");
    runs.push_back(run);
  }
  Expect(text, '}', what);
  if (!text.empty()) throw ValidationError(std::string(what) + " is not a multirange of positions");
  return runs;
}

std::string FormatStatement(const Statement& statement) {
  nlohmann::ordered_json json = {{"removed", statement.removed},
                                 {"digest", ToHex(statement.digest)},
                                 {"first_position", statement.first_position},
                                 {"last_position", statement.last_position}};
  if (statement.before_upgrade) json["before_upgrade"] = true;
  return json.dump();
}

Statement ParseStatement(std::string_view text) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  const auto fault = [](const std::string& what) {
    return ValidationError("a removal record's data " + what);
  };
  if (!json.is_object()) throw fault("is not a JSON object");
  static const std::set<std::string> kKeys = {"removed", "digest", "first_position", "last_position",
                                              "before_upgrade"};
  for (const auto& [key, value] : json.items())
    if (!kKeys.contains(key)) throw fault("has an unknown key \"" + key + "\"");
  Statement statement;
  for (const char* key : {"removed", "first_position", "last_position"})
    if (!json.contains(key) || !json[key].is_number_unsigned()) throw fault(std::string("lacks a count \"") + key + "\"");
  statement.removed = json["removed"].get<std::uint64_t>();
  statement.first_position = json["first_position"].get<std::uint64_t>();
  statement.last_position = json["last_position"].get<std::uint64_t>();
  if (!json.contains("digest") || !json["digest"].is_string()) throw fault("lacks a \"digest\"");
  const std::optional<Hash> digest = HashFromHex(json["digest"].get<std::string>());
  if (!digest || ToHex(*digest) != json["digest"].get<std::string>())
    throw fault("has a \"digest\" that is not 64 lower-case hex digits");
  statement.digest = *digest;
  if (json.contains("before_upgrade")) {
    if (!json["before_upgrade"].is_boolean()) throw fault("has a \"before_upgrade\" that is not a boolean");
    statement.before_upgrade = json["before_upgrade"].get<bool>();
  }
  return statement;
}

}  // namespace act::core::removal
