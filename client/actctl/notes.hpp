#pragma once
// What the commands that handle C2SP signed notes share: keys, verifier keys
// and notes read from files and options, core's faults in them reported as
// unusable input (UsageError, exit 2) naming the option or file.
#include <span>
#include <string>
#include <string_view>

#include "act/core/signed_note.hpp"

namespace actctl {

// The Ed25519 key of --key, for signing under --name (both checked).
act::core::NoteSigner LoadSigner(const std::string& key_file, const std::string& name);
// The same without a name (the command finds it elsewhere).
act::core::NoteSigner LoadKey(const std::string& key_file);
act::core::VerifierKey ParseVkeyOption(std::string_view option, std::string_view vkey);
// A file's text, or standard input for "-"; at most 1 MiB (a note is small).
std::string ReadNoteInput(const std::string& path);
// core::CheckNote, a malformed note a UsageError.
act::core::NoteCheck CheckNoteInput(std::string_view note, std::span<const act::core::VerifierKey> keys);
// A note text signed under `name`; a note that is already signed gets one
// more signature line, over its text (refused when this key signed it already).
std::string AddSignature(std::string_view input, std::string_view name, const act::core::NoteSigner& signer);
// "<name>+<key ID>", how output names a key.
std::string KeyLabel(const act::core::VerifierKey& key);

}  // namespace actctl
