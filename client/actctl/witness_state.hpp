#pragma once
// A witness's memory (actctl witness serve): per log, the last checkpoint it
// cosigned, one file per origin in the state directory, named by the
// lower-case hex SHA-256 of the origin (the "origin hash" of C2SP
// tlog-witness) so that any origin makes a safe file name. Each file holds
// the signed note as kept (the log's signature and the witness's
// cosignature). A file is replaced atomically and fsynced before the
// cosignature is answered: a crash never leaves a witness that cosigned a
// size but remembers a smaller one.
#include <optional>
#include <string>

#include "act/core/tlog_witness.hpp"

namespace actctl {

class WitnessState {
 public:
  // Creates the directory (mode 0700) when it does not exist; UsageError
  // when it cannot.
  explicit WitnessState(std::string directory);

  // The last checkpoint cosigned for `origin`, nullopt for none;
  // std::runtime_error for a file that cannot be read or does not parse (a
  // witness must not forget a log because its memory is damaged).
  std::optional<act::core::WitnessedCheckpoint> Load(const std::string& origin) const;
  // Writes a temporary file, fsyncs it, renames it over the origin's file
  // and fsyncs the directory; std::runtime_error when any step fails.
  void Store(const std::string& origin, const act::core::WitnessedCheckpoint& checkpoint) const;

  // The origin's file name: hex SHA-256 of the origin.
  static std::string OriginHash(const std::string& origin);

 private:
  std::string PathOf(const std::string& origin) const;
  std::string directory_;
};

}  // namespace actctl
