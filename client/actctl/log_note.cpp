// actctl log vkey / sign / verify-note: C2SP signed notes offline, with
// Ed25519 keys in PEM files (what `openssl genpkey -algorithm ed25519` makes).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "act/core/errors.hpp"
#include "act/core/signed_note.hpp"
#include "command.hpp"
#include "notes.hpp"

namespace actctl {

namespace {

namespace core = act::core;

struct KeyArgs {
  std::string key_file, name;
};

struct SignArgs {
  KeyArgs key;
  std::string input = "-";
};

struct VerifyNoteArgs {
  std::vector<std::string> vkeys;
  std::string input = "-";
  bool text = false;
};

int PrintVerifierKey(const KeyArgs& args) {
  const core::NoteSigner signer = LoadSigner(args.key_file, args.name);
  fmt::print("{}\n", core::FormatVerifierKey(signer.VerifierKeyFor(args.name)));
  return kOk;
}

int Sign(const SignArgs& args) {
  const core::NoteSigner signer = LoadSigner(args.key.key_file, args.key.name);
  const std::string input = ReadNoteInput(args.input);
  fmt::print("{}", AddSignature(input, args.key.name, signer));
  return kOk;
}

int VerifyNote(const VerifyNoteArgs& args) {
  std::vector<core::VerifierKey> keys;
  for (const std::string& vkey : args.vkeys) keys.push_back(ParseVkeyOption("--vkey", vkey));
  const std::string input = ReadNoteInput(args.input);
  const core::NoteCheck check = CheckNoteInput(input, keys);
  if (!check.ok()) {
    fmt::print(stderr, "the note does not verify: {}\n", check.problem());
    return kFailed;
  }
  if (args.text) {
    fmt::print("{}", check.note.text);
    return kOk;
  }
  std::string by;
  for (const core::VerifierKey& key : check.verified) by += (by.empty() ? "" : ", ") + KeyLabel(key);
  const std::size_t ignored = check.ignored.size();
  fmt::print("the note verifies: signed by {}{}\n", by,
             ignored == 0   ? ""
             : ignored == 1 ? " (1 signature by another key ignored)"
                            : fmt::format(" ({} signatures by other keys ignored)", ignored));
  return kOk;
}

void AddKeyOptions(CLI::App& command, KeyArgs& args) {
  command.add_option("--key", args.key_file, "the Ed25519 private key, PEM (openssl genpkey -algorithm ed25519)")
      ->type_name("FILE.pem")
      ->required();
  command.add_option("--name", args.name, "the key name: for a checkpoint, the log's origin (its first line)")
      ->type_name("ORIGIN")
      ->required();
}

constexpr const char* kInputHelp = "the note; - or nothing for standard input";

}  // namespace

void AddLogNote(CLI::App& log, Chosen& chosen) {
  auto key = std::make_shared<KeyArgs>();
  CLI::App* vkey = log.add_subcommand(
      "vkey",
      "Print the C2SP verifier key (<name>+<key ID>+<key>) of an Ed25519 private key under a key name: what "
      "verify-note, audit and act.register_log_key take. Exit 0, or 2 for an unusable key or name");
  AddKeyOptions(*vkey, *key);
  vkey->callback([&chosen, key] { chosen.run = [key] { return PrintVerifierKey(*key); }; });

  auto sign = std::make_shared<SignArgs>();
  CLI::App* sign_command = log.add_subcommand(
      "sign",
      "Sign a note text (a checkpoint body from act.checkpoint(false)) and print the C2SP signed note: the text, a "
      "blank line, the signature line. A note that is already signed gets one more signature line, over its text. "
      "Exit 0, or 2 for an unusable key, name or note");
  AddKeyOptions(*sign_command, sign->key);
  sign_command->add_option("input", sign->input, kInputHelp)->type_name("FILE|-");
  sign_command->callback([&chosen, sign] { chosen.run = [sign] { return Sign(*sign); }; });

  auto verify = std::make_shared<VerifyNoteArgs>();
  CLI::App* verify_note = log.add_subcommand(
      "verify-note",
      "Verify a C2SP signed note against verifier keys: signatures by other keys are ignored, a signature by a given "
      "key that does not verify rejects the note. Exit 0 when a given key verifies it (and none fails), 1 when not, "
      "2 for an unusable key or note");
  verify_note->add_option("--vkey", verify->vkeys, "a trusted verifier key (<name>+<key ID>+<key>); repeatable")
      ->type_name("VKEY")
      ->allow_extra_args(false)  // one key per --vkey: a note file after it is not a key
      ->required();
  verify_note->add_flag("--text", verify->text, "print the verified note's text instead of who signed it");
  verify_note->add_option("input", verify->input, kInputHelp)->type_name("FILE|-");
  verify_note->callback([&chosen, verify] { chosen.run = [verify] { return VerifyNote(*verify); }; });
}

}  // namespace actctl
