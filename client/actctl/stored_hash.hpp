#pragma once
// A hash the database gave as hex, for the checks that recompute the log
// (actctl log audit, the inspector's proofs): `Error` (the caller's kind of
// fault) naming `what` when it is NULL or not 32 bytes.
#include <fmt/format.h>

#include <optional>
#include <string>

#include "act/core/event_hash.hpp"

namespace actctl {

template <typename Error>
act::core::Hash StoredHash(const std::optional<std::string>& hex, const std::string& what) {
  if (!hex) throw Error(what + " is NULL");
  if (const auto hash = act::core::HashFromHex(*hex)) return *hash;
  throw Error(fmt::format("{} is not 32 bytes (hex {})", what, *hex));
}

}  // namespace actctl
