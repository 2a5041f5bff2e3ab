#include "act/core/event_hash.hpp"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace act::core {

namespace {

constexpr char kMagic[3] = {'A', 'C', 'T'};

void AppendU32(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((value >> shift) & 0xFF));
}

void AppendI64(std::string& out, std::int64_t value) {
  const auto bits = static_cast<std::uint64_t>(value);
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((bits >> shift) & 0xFF));
}

void AppendField(std::string& out, std::string_view bytes) {
  if (bytes.size() > 0xFFFFFFFFu) throw std::length_error("event field longer than 4 GiB cannot be encoded");
  AppendU32(out, static_cast<std::uint32_t>(bytes.size()));
  out.append(bytes);
}

void EncodeInto(std::string& out, const EventFields& event) {
  out.reserve(out.size() + 4 + 4 * 4 + 16 + event.stream.size() + event.name.size() + event.data_json.size() +
              event.meta_json.size());
  out.append(kMagic, sizeof kMagic);
  out.push_back(static_cast<char>(kEncodingVersion));
  AppendField(out, event.stream);
  AppendI64(out, event.version);
  AppendField(out, event.name);
  AppendField(out, event.data_json);
  AppendField(out, event.meta_json);
  AppendI64(out, event.created_unix_micros);
}

// SHA-256 fetched once per process: EVP_sha256() in EVP_DigestInit_ex makes
// OpenSSL 3 look the algorithm up again on every event (costlier than the
// hashing itself in act.verify's profile).
const EVP_MD* Sha256() {
  static const std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)> fetched(EVP_MD_fetch(nullptr, "SHA256", nullptr),
                                                                        &EVP_MD_free);
  return fetched ? fetched.get() : EVP_sha256();
}

}  // namespace

std::string EncodeEvent(const EventFields& event) {
  std::string out;
  EncodeInto(out, event);
  return out;
}

struct EventHasher::Context {
  struct Free {
    void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
  };
  std::unique_ptr<EVP_MD_CTX, Free> digest{EVP_MD_CTX_new()};
  std::string buffer;  // reused preimage buffer
};

EventHasher::EventHasher() : context_(std::make_unique<Context>()) {
  if (!context_->digest) throw std::runtime_error("OpenSSL could not allocate a digest context");
}

EventHasher::~EventHasher() = default;

Hash EventHasher::Compute(const Hash& prev, const EventFields& event) {
  std::string& buffer = context_->buffer;
  buffer.clear();
  buffer.append(reinterpret_cast<const char*>(prev.data()), prev.size());
  EncodeInto(buffer, event);
  Hash out{};
  unsigned int length = 0;
  EVP_MD_CTX* ctx = context_->digest.get();
  if (EVP_DigestInit_ex(ctx, Sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx, buffer.data(), buffer.size()) != 1 || EVP_DigestFinal_ex(ctx, out.data(), &length) != 1 ||
      length != out.size())
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
