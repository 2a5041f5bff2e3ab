#pragma once
// The per-stream hash chain: hash = SHA-256(prev || Encode(event)).
// The byte layout is specified in docs/hash-chain.md; change it only with a
// new encoding version.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace act::core {

using Hash = std::array<std::uint8_t, 32>;
inline constexpr Hash kZeroHash{};
inline constexpr std::uint8_t kEncodingVersion = 1;

// The hashed fields of one event. JSON values are in canonical text form:
// PostgreSQL's jsonb rendering (see docs/hash-chain.md).
struct EventFields {
  std::string_view stream;
  std::int32_t version = 0;
  std::string_view name;
  std::string_view data_json;
  std::string_view meta_json;
  std::int64_t created_unix_micros = 0;  // microseconds since 1970-01-01 00:00:00 UTC
};

// The encoded preimage of one event (without prev); for tests and auditors.
std::string EncodeEvent(const EventFields& event);

// Computes event hashes with one reusable OpenSSL digest context.
class EventHasher {
 public:
  EventHasher();
  ~EventHasher();
  EventHasher(const EventHasher&) = delete;
  EventHasher& operator=(const EventHasher&) = delete;

  Hash Compute(const Hash& prev, const EventFields& event);

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

std::string ToHex(const Hash& hash);

}  // namespace act::core
