#include "import_meta.hpp"

#include <fmt/format.h>

#include <charconv>

#include "command.hpp"

namespace actctl {

namespace {

std::string KeyPrefix(std::string_view source) { return fmt::format("import:{}:", source); }

}  // namespace

std::string ImportKey(std::string_view source, std::int64_t first, std::int64_t last) {
  return fmt::format("{}{}..{}", KeyPrefix(source), first, last);
}

std::optional<std::int64_t> LastPositionOf(std::string_view source, const nlohmann::json& meta) {
  const auto key = meta.find(kIdempotencyKey);
  if (key == meta.end() || !key->is_string()) return std::nullopt;
  const auto& text = key->get_ref<const std::string&>();
  const std::string prefix = KeyPrefix(source);
  const std::size_t dots = text.find("..");
  if (text.rfind(prefix, 0) != 0 || dots == std::string::npos) return std::nullopt;
  std::int64_t last = 0;
  const char* end = text.data() + text.size();
  const auto [next, error] = std::from_chars(text.data() + dots + 2, end, last);
  if (error != std::errc{} || next != end) return std::nullopt;
  return last;
}

nlohmann::json TargetMeta(const nlohmann::json& source_meta, act::Timestamp created, std::int64_t position,
                          const std::string& key) {
  nlohmann::json meta = source_meta;
  for (const std::string_view added : {kRestoredCreated, kIdempotencyKey})
    if (meta.contains(added))
      throw UsageError(
          fmt::format("the source's event at position {} has \"{}\" in its metadata, a key the import "
                      "writes there itself",
                      position, added));
  meta[std::string(kRestoredCreated)] = act::to_iso8601(created);
  meta[std::string(kIdempotencyKey)] = key;
  return meta;
}

Restored RestoredFrom(const nlohmann::json& target_meta) {
  Restored restored{target_meta, std::nullopt};
  if (!restored.meta.is_object()) return restored;
  if (const auto time = restored.meta.find(kRestoredCreated); time != restored.meta.end() && time->is_string()) {
    try {
      restored.created = act::parse_timestamp(time->get_ref<const std::string&>());
    } catch (const std::exception&) {  // a time the check then reports as missing
    }
  }
  restored.meta.erase(std::string(kRestoredCreated));
  restored.meta.erase(std::string(kIdempotencyKey));
  return restored;
}

}  // namespace actctl
