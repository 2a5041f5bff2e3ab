#include "notes.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "act/core/errors.hpp"
#include "command.hpp"

namespace actctl {

namespace core = act::core;

namespace {

constexpr std::size_t kMaxNoteBytes = 1 << 20;

// Runs `call`, a ValidationError in it a UsageError with `context` in front.
template <typename Call>
auto AsUsage(std::string_view context, Call&& call) {
  try {
    return call();
  } catch (const core::ValidationError& e) {
    throw UsageError(context.empty() ? std::string(e.what()) : fmt::format("{}: {}", context, e.what()));
  }
}

}  // namespace

core::NoteSigner LoadSigner(const std::string& key_file, const std::string& name) {
  AsUsage("", [&] {
    core::ValidateKeyName(name, "--name");
    return 0;
  });
  return LoadKey(key_file);
}

core::NoteSigner LoadKey(const std::string& key_file) {
  return AsUsage("--key", [&] { return core::NoteSigner::FromPemFile(key_file); });
}

core::VerifierKey ParseVkeyOption(std::string_view option, std::string_view vkey) {
  return AsUsage(option, [&] { return core::ParseVerifierKey(vkey); });
}

std::string ReadNoteInput(const std::string& path) {
  const bool standard_input = path == "-";
  const std::string what = standard_input ? "standard input" : fmt::format("\"{}\"", path);
  std::ifstream file;
  if (!standard_input) {
    file.open(path, std::ios::binary);
    if (!file) throw UsageError(fmt::format("cannot open {}: {}", what, std::strerror(errno)));
  }
  std::istream& in = standard_input ? std::cin : file;
  std::string text;
  char buffer[4096];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxNoteBytes)
      throw UsageError(fmt::format("{} is larger than {} bytes: not a note", what, kMaxNoteBytes));
  }
  if (in.bad()) throw UsageError(fmt::format("cannot read {}", what));
  return text;
}

core::NoteCheck CheckNoteInput(std::string_view note, std::span<const core::VerifierKey> keys) {
  return AsUsage("", [&] { return core::CheckNote(note, keys); });
}

std::string AddSignature(std::string_view input, std::string_view name, const core::NoteSigner& signer) {
  return AsUsage("", [&] {
    core::SignedNote note;
    try {
      note = core::ParseSignedNote(input);
    } catch (const core::ValidationError&) {
      return core::SignNote(input, name, signer);  // a note text, not a signed note
    }
    const core::VerifierKey key = signer.VerifierKeyFor(name);
    for (const core::NoteSignature& signature : note.signatures)
      if (signature.name == key.name && signature.key_id == key.key_id)
        throw UsageError(fmt::format("the note is already signed by {}", KeyLabel(key)));
    note.signatures.push_back(signer.Sign(name, note.text));
    return core::FormatSignedNote(note);
  });
}

std::string KeyLabel(const core::VerifierKey& key) {
  return fmt::format("{}+{:02x}{:02x}{:02x}{:02x}", key.name, key.key_id[0], key.key_id[1], key.key_id[2],
                     key.key_id[3]);
}

}  // namespace actctl
