#pragma once
// The signature lines of a kept checkpoint as fields of their own, for the
// Verification page: who signed (name, key ID), whether it is the log's
// signature or a witness's cosignature and when the witness cosigned, and
// whether it verifies with the key registered for it (act.log_keys).
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>

#include "act/core/signed_note.hpp"

namespace actctl::inspector {

// One object per signature line: name, key_id (8 hex digits), kind
// ("signature", "cosignature" or "unknown"), time (a cosignature's, else
// null) and valid (null when no registered key has its name and key ID). A
// note without signature lines has none.
nlohmann::json NoteSignaturesJson(std::string_view note, std::span<const act::core::VerifierKey> keys);

}  // namespace actctl::inspector
