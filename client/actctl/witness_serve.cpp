// actctl witness serve / vkey: a C2SP tlog-witness (https://c2sp.org/tlog-witness)
// for pg_act logs (docs/verifiable-log.md, "Witnesses"). The witness keeps
// the last checkpoint it cosigned per log (WitnessState) and cosigns a new
// one only with a consistency proof from it, so a log that shows one party a
// forked tree cannot get this witness's cosignature on both branches.
#include <fmt/format.h>
#include <httplib.h>
#include <CLI/CLI.hpp>

#include <ctime>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "act/core/cosignature.hpp"
#include "act/core/errors.hpp"
#include "act/core/signed_note.hpp"
#include "act/core/tlog_witness.hpp"
#include "command.hpp"
#include "http_listen.hpp"
#include "notes.hpp"
#include "witness_state.hpp"

namespace actctl {

namespace {

namespace core = act::core;

// A request body is an old size, at most 63 hashes and a checkpoint with
// its signatures: far below this.
constexpr std::size_t kMaxBodyBytes = 1 << 16;

struct WitnessArgs {
  std::string key_file, name, state, listen = "127.0.0.1:0";
  std::vector<std::string> logs;
};

struct KeyArgs {
  std::string key_file, name;
};

// The log keys by origin: C2SP names a checkpoint's signing key by its origin.
std::map<std::string, std::vector<core::VerifierKey>> LogKeys(const std::vector<std::string>& vkeys) {
  std::map<std::string, std::vector<core::VerifierKey>> keys;
  for (const std::string& vkey : vkeys) {
    const core::VerifierKey key = ParseVkeyOption("--log", vkey);
    if (key.type != core::kEd25519SignatureType)
      throw UsageError(fmt::format("--log: \"{}\" is a cosigner key (type 0x04), not a log's signing key", vkey));
    keys[key.name].push_back(key);
  }
  return keys;
}

class Witness {
 public:
  explicit Witness(const WitnessArgs& args)
      : signer_(LoadSigner(args.key_file, args.name)),
        name_(args.name),
        state_(args.state),
        logs_(LogKeys(args.logs)) {}

  // One lock around reading the state, judging and storing: two requests for
  // one log must never both be judged against the same old state (C2SP: a
  // witness that stored them in the other order would roll the log back).
  core::WitnessVerdict AddCheckpoint(const std::string& body) {
    const std::optional<std::string> origin = core::RequestOrigin(body);
    static const std::vector<core::VerifierKey> kNone;
    const auto found = origin ? logs_.find(*origin) : logs_.end();
    const std::vector<core::VerifierKey>& keys = found == logs_.end() ? kNone : found->second;
    const std::lock_guard<std::mutex> lock(mutex_);
    const std::optional<core::WitnessedCheckpoint> last = keys.empty() ? std::nullopt : state_.Load(*origin);
    const auto now = static_cast<std::uint64_t>(std::time(nullptr));
    core::WitnessVerdict verdict = core::JudgeAddCheckpoint(body, keys, last, signer_, name_, now);
    if (verdict.accepted) state_.Store(*origin, *verdict.accepted);
    return verdict;
  }

  // C2SP's monitoring endpoint: the last cosigned note of the log whose origin hashes to `hash`.
  std::optional<std::string> Latest(const std::string& hash) {
    for (const auto& [origin, keys] : logs_) {
      if (WitnessState::OriginHash(origin) != hash) continue;
      const std::lock_guard<std::mutex> lock(mutex_);
      const std::optional<core::WitnessedCheckpoint> last = state_.Load(origin);
      if (last) return last->note;
    }
    return std::nullopt;
  }

 private:
  core::NoteSigner signer_;
  std::string name_;
  WitnessState state_;
  std::map<std::string, std::vector<core::VerifierKey>> logs_;
  std::mutex mutex_;
};

int Serve(const WitnessArgs& args) {
  Witness witness(args);
  httplib::Server server;
  server.set_payload_max_length(kMaxBodyBytes);
  server.Post("/add-checkpoint", [&witness](const httplib::Request& request, httplib::Response& response) {
    core::WitnessVerdict verdict;
    try {
      verdict = witness.AddCheckpoint(request.body);
    } catch (const std::exception& e) {
      // The state could not be read or stored: no cosignature without it.
      verdict = core::WitnessVerdict{500, "text/plain; charset=utf-8", std::string(e.what()) + "\n", std::nullopt};
    }
    const std::string size = verdict.accepted ? std::to_string(verdict.accepted->checkpoint.size) : "-";
    fmt::print(stderr, "add-checkpoint: {} size {}: {}", verdict.status, size,
               verdict.status == 200 ? "cosigned\n" : verdict.body);
    response.status = verdict.status;
    response.set_content(verdict.body, verdict.content_type.c_str());
  });
  server.Get(R"(/([0-9a-f]{64})/checkpoint)", [&witness](const httplib::Request& request, httplib::Response& response) {
    try {
      const std::optional<std::string> note = witness.Latest(request.matches[1]);
      response.status = note ? 200 : 404;
      response.set_content(note ? *note : "no checkpoint cosigned for this log\n", "text/plain; charset=utf-8");
    } catch (const std::exception& e) {
      response.status = 500;
      response.set_content(std::string(e.what()) + "\n", "text/plain; charset=utf-8");
    }
  });
  return ServeUntilStopped(server, args.listen);
}

int PrintCosignerKey(const KeyArgs& args) {
  const core::NoteSigner signer = LoadSigner(args.key_file, args.name);
  fmt::print("{}\n", core::FormatVerifierKey(core::MakeCosignerKey(args.name, signer.public_key())));
  return kOk;
}

void AddKeyOptions(CLI::App& command, std::string& key_file, std::string& name) {
  command.add_option("--key", key_file, "the witness's Ed25519 private key, PEM (openssl genpkey -algorithm ed25519)")
      ->type_name("FILE.pem")
      ->required();
  command.add_option("--name", name, "the witness's name, e.g. witness.example.com/w1")->type_name("NAME")->required();
}

}  // namespace

void AddWitness(CLI::App& witness, Chosen& chosen) {
  auto args = std::make_shared<WitnessArgs>();
  CLI::App* serve = witness.add_subcommand(
      "serve",
      "Run a C2SP tlog-witness: POST /add-checkpoint cosigns a log's checkpoint (C2SP tlog-cosignature/v1) when the "
      "log's key signed it and a consistency proof leads to it from the last checkpoint this witness cosigned for "
      "the log, kept in --state; GET /<sha256 of origin>/checkpoint returns that checkpoint. Prints the address it "
      "listens on, runs until SIGINT or SIGTERM. Exit 0 when stopped, 2 for unusable options");
  AddKeyOptions(*serve, args->key_file, args->name);
  serve->add_option("--state", args->state, "the directory of the witness's per-log state (made when missing)")
      ->type_name("DIR")
      ->required();
  serve->add_option("--log", args->logs, "a log's verifier key (act.register_log_key's, type 0x01); repeatable")
      ->type_name("VKEY")
      ->allow_extra_args(false)
      ->required();
  serve->add_option("--listen", args->listen, "the address to listen on; port 0 picks a free one")
      ->type_name("HOST:PORT")
      ->capture_default_str();
  serve->callback([&chosen, args] { chosen.run = [args] { return Serve(*args); }; });

  auto key = std::make_shared<KeyArgs>();
  CLI::App* vkey = witness.add_subcommand(
      "vkey",
      "Print the witness's cosigner verifier key (<name>+<key ID>+base64(0x04 || key)): what act.register_log_key "
      "takes so that act.add_checkpoint_signature accepts its cosignatures. Exit 0, or 2 for an unusable key or name");
  AddKeyOptions(*vkey, key->key_file, key->name);
  vkey->callback([&chosen, key] { chosen.run = [key] { return PrintCosignerKey(*key); }; });
}

}  // namespace actctl
