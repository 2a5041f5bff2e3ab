#pragma once
// The per-stream hash chain: hash = SHA-256(prev || Encode(event)).
// The byte layout is specified in docs/hash-chain.md; change it only with a
// new encoding version.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "act/core/byte_buffer.hpp"

namespace act::core {

using Hash = std::array<std::uint8_t, 32>;
inline constexpr Hash kZeroHash{};
inline constexpr std::uint8_t kEncodingVersion = 1;
// Tagged events only: version 1's fields with the tags between meta and created.
inline constexpr std::uint8_t kTaggedEncodingVersion = 2;

// The hashed fields of one event. JSON values are in canonical text form:
// PostgreSQL's jsonb rendering (see docs/hash-chain.md).
struct EventFields {
  std::string_view stream;
  std::int32_t version = 0;
  std::string_view name;
  std::string_view data_json;
  std::string_view meta_json;
  std::int64_t created_unix_micros = 0;  // microseconds since 1970-01-01 00:00:00 UTC
  std::span<const std::string_view> tags;  // in the order given; empty: encoding version 1
};

// The encoded preimage of one event (without prev); for tests and auditors.
std::string EncodeEvent(const EventFields& event);

// What SHA-256 runs over for one event, prev || encoding, written in order
// into one reused buffer: Start, the data and meta fields, Finish. A field's
// bytes may be written in place, between BeginField and EndField, by a caller
// that renders the JSON text straight into the buffer instead of building it
// first (act.verify).
class Preimage {
 public:
  void Start(const Hash& prev, std::string_view stream, std::int32_t version, std::string_view name,
             std::uint8_t encoding = kEncodingVersion);
  void Field(std::string_view bytes);
  ByteBuffer& BeginField();  // append the field's bytes to the buffer returned
  void EndField();
  void Tags(std::span<const std::string_view> tags);  // encoding version 2, after meta
  void Finish(std::int64_t created_unix_micros);

  std::string_view bytes() const { return buffer_.view(); }

 private:
  ByteBuffer buffer_;
  std::size_t field_start_ = 0;
};

// Computes event hashes, reusing one preimage buffer.
class EventHasher {
 public:
  EventHasher();
  ~EventHasher();
  EventHasher(const EventHasher&) = delete;
  EventHasher& operator=(const EventHasher&) = delete;

  Hash Compute(const Hash& prev, const EventFields& event);
  // SHA-256 of a preimage written by the caller.
  Hash Digest(const Preimage& preimage);

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

std::string ToHex(const Hash& hash);

}  // namespace act::core
