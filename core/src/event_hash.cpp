#include "act/core/event_hash.hpp"

// SHA256_Init/Update/Final are deprecated in OpenSSL 3 in favour of EVP, but
// EVP_DigestInit_ex frees and reallocates the provider's context on every
// call, even on a reused EVP_MD_CTX: about 170 ns per event, a third of
// act.verify's whole budget per event (PERFORMANCE.md). The low-level calls
// go straight to the same (SHA-NI) block function. If a future OpenSSL drops
// them, only Digest below changes.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <cstring>
#include <memory>
#include <stdexcept>

namespace act::core {

namespace {

constexpr char kMagic[3] = {'A', 'C', 'T'};

char* StoreU32(char* at, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) *at++ = static_cast<char>((value >> shift) & 0xFF);
  return at;
}

char* StoreI64(char* at, std::int64_t value) {
  const auto bits = static_cast<std::uint64_t>(value);
  for (int shift = 56; shift >= 0; shift -= 8) *at++ = static_cast<char>((bits >> shift) & 0xFF);
  return at;
}

void CheckFieldSize(std::size_t size) {
  if (size > 0xFFFFFFFFu) throw std::length_error("event field longer than 4 GiB cannot be encoded");
}

char* StoreField(char* at, std::string_view bytes) {
  CheckFieldSize(bytes.size());
  at = StoreU32(at, static_cast<std::uint32_t>(bytes.size()));
  if (!bytes.empty()) memcpy(at, bytes.data(), bytes.size());
  return at + bytes.size();
}

}  // namespace

// Each piece is written through a local pointer into room reserved once:
// act.verify writes a preimage per event.
void Preimage::Start(const Hash& prev, std::string_view stream, std::int32_t version, std::string_view name,
                     std::uint8_t encoding) {
  buffer_.Clear();
  char* at = buffer_.Reserve(prev.size() + sizeof kMagic + 1 + 4 + stream.size() + 8 + 4 + name.size());
  memcpy(at, prev.data(), prev.size());
  at += prev.size();
  memcpy(at, kMagic, sizeof kMagic);
  at += sizeof kMagic;
  *at++ = static_cast<char>(encoding);
  at = StoreField(at, stream);
  at = StoreI64(at, version);
  buffer_.Commit(StoreField(at, name));
}

void Preimage::Field(std::string_view bytes) {
  CheckFieldSize(bytes.size());  // before asking for the room
  buffer_.Commit(StoreField(buffer_.Reserve(4 + bytes.size()), bytes));
}

ByteBuffer& Preimage::BeginField() {
  buffer_.Commit(buffer_.Reserve(4) + 4);  // the length, filled in by EndField
  field_start_ = buffer_.size();
  return buffer_;
}

void Preimage::EndField() {
  const std::size_t size = buffer_.size() - field_start_;
  CheckFieldSize(size);
  StoreU32(buffer_.data() + field_start_ - 4, static_cast<std::uint32_t>(size));
}

void Preimage::Tags(std::span<const std::string_view> tags) {
  buffer_.Commit(StoreU32(buffer_.Reserve(4), static_cast<std::uint32_t>(tags.size())));
  for (const std::string_view tag : tags) Field(tag);
}

void Preimage::Finish(std::int64_t created_unix_micros) {
  buffer_.Commit(StoreI64(buffer_.Reserve(8), created_unix_micros));
}

namespace {

void Write(Preimage& preimage, const Hash& prev, const EventFields& event) {
  const bool tagged = !event.tags.empty();
  preimage.Start(prev, event.stream, event.version, event.name, tagged ? kTaggedEncodingVersion : kEncodingVersion);
  preimage.Field(event.data_json);
  preimage.Field(event.meta_json);
  if (tagged) preimage.Tags(event.tags);
  preimage.Finish(event.created_unix_micros);
}

}  // namespace

std::string EncodeEvent(const EventFields& event) {
  Preimage preimage;
  Write(preimage, kZeroHash, event);
  return std::string(preimage.bytes().substr(kZeroHash.size()));
}

struct EventHasher::Context {
  Preimage preimage;  // reused by Compute
};

EventHasher::EventHasher() : context_(std::make_unique<Context>()) {}

EventHasher::~EventHasher() = default;

Hash EventHasher::Compute(const Hash& prev, const EventFields& event) {
  Write(context_->preimage, prev, event);
  return Digest(context_->preimage);
}

Hash EventHasher::Digest(const Preimage& preimage) {
  const std::string_view bytes = preimage.bytes();
  Hash out{};
  SHA256_CTX ctx;
  if (SHA256_Init(&ctx) != 1 || SHA256_Update(&ctx, bytes.data(), bytes.size()) != 1 ||
      SHA256_Final(out.data(), &ctx) != 1)
    throw std::runtime_error("OpenSSL SHA-256 failed");
  return out;
}

std::string ToHex(const Hash& hash) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(hash.size() * 2);
  for (std::uint8_t byte : hash) {
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 0x0F]);
  }
  return hex;
}

}  // namespace act::core
