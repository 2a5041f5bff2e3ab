// The hash-chain encoding (docs/hash-chain.md): EncodeEvent writes exactly the
// documented layout, so it decodes back to the same fields and no two events
// share an encoding; EventHasher hashes prev || encoding.
#include <fuzzer/FuzzedDataProvider.h>
#include <openssl/sha.h>

#include <cstring>

#include "act/core/event_hash.hpp"
#include "fuzz_support.hpp"

namespace {

using act::fuzz::Check;
namespace core = act::core;

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  std::uint64_t Number(int width) {
    Check(position_ + static_cast<std::size_t>(width) <= bytes_.size(), "the encoding is long enough");
    std::uint64_t value = 0;
    for (int i = 0; i < width; ++i) value = (value << 8) | static_cast<unsigned char>(bytes_[position_++]);
    return value;
  }
  std::string_view Field() {
    const auto length = static_cast<std::size_t>(Number(4));
    Check(position_ + length <= bytes_.size(), "a field fits the encoding");
    const std::string_view field = bytes_.substr(position_, length);
    position_ += length;
    return field;
  }
  bool AtEnd() const { return position_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t position_ = 0;
};

void CheckLayout(const core::EventFields& event) {
  const std::string encoded = core::EncodeEvent(event);
  Check(encoded.compare(0, 4, std::string("ACT") + static_cast<char>(core::kEncodingVersion)) == 0,
        "the encoding starts with ACT and its version");
  Reader reader(std::string_view(encoded).substr(4));
  Check(reader.Field() == event.stream, "stream");
  Check(static_cast<std::int32_t>(static_cast<std::int64_t>(reader.Number(8))) == event.version, "version");
  Check(reader.Field() == event.name, "name");
  Check(reader.Field() == event.data_json, "data");
  Check(reader.Field() == event.meta_json, "meta");
  Check(static_cast<std::int64_t>(reader.Number(8)) == event.created_unix_micros, "created");
  Check(reader.AtEnd(), "nothing follows created");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider provider(data, size);
  core::Hash prev{};
  provider.ConsumeData(prev.data(), prev.size());
  const std::string stream = provider.ConsumeRandomLengthString(1000);
  const std::string name = provider.ConsumeRandomLengthString(300);
  const std::string data_json = provider.ConsumeRandomLengthString(2000);
  const std::string meta_json = provider.ConsumeRandomLengthString(2000);
  core::EventFields event;
  event.stream = stream;
  event.name = name;
  event.data_json = data_json;
  event.meta_json = meta_json;
  event.version = provider.ConsumeIntegral<std::int32_t>();
  event.created_unix_micros = provider.ConsumeIntegral<std::int64_t>();
  CheckLayout(event);

  // Moving one byte across a field boundary changes the encoding: fields are
  // length-prefixed, never just concatenated.
  if (!name.empty()) {
    core::EventFields moved = event;
    const std::string longer_stream = stream + name[0];
    moved.stream = longer_stream;
    moved.name = std::string_view(name).substr(1);
    Check(core::EncodeEvent(moved) != core::EncodeEvent(event), "a byte moved between fields changes the encoding");
  }

  core::EventHasher hasher;
  const core::Hash hash = hasher.Compute(prev, event);
  Check(hasher.Compute(prev, event) == hash, "the hasher is deterministic across reuse");
  const std::string preimage = std::string(reinterpret_cast<const char*>(prev.data()), prev.size()) + core::EncodeEvent(event);
  core::Hash expected{};
  SHA256(reinterpret_cast<const unsigned char*>(preimage.data()), preimage.size(), expected.data());
  Check(hash == expected, "the hash is SHA-256 of prev followed by the encoding");
  Check(core::ToHex(hash).size() == 64, "hex of a hash is 64 digits");
  return 0;
}
