// actctl log witness: the log's side of C2SP tlog-witness (docs/verifiable-log.md,
// "Witnesses"). The newest signed checkpoint in act.checkpoints goes to each
// witness with a consistency proof from the size that witness last cosigned;
// the cosignatures it answers with are stored with act.add_checkpoint_signature,
// which checks them against the witnesses' registered keys.
#include <fmt/format.h>
#include <httplib.h>
#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "act/core/checkpoint.hpp"
#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "act/core/signed_note.hpp"
#include "act/core/tlog_witness.hpp"
#include "act/errors.hpp"
#include "act/log_store.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "table.hpp"

namespace actctl {

namespace {

namespace core = act::core;

struct LogWitnessArgs {
  std::vector<std::string> urls;
  int timeout_s = 10;
};

// "http://host:port/prefix" as httplib's client base and the request path.
struct WitnessUrl {
  std::string base, path;
};

WitnessUrl SplitUrl(const std::string& url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string::npos || (url.compare(0, scheme, "http") != 0 && url.compare(0, scheme, "https") != 0))
    throw UsageError(fmt::format("--witness \"{}\" is not an http:// or https:// URL", url));
  const std::size_t slash = url.find('/', scheme + 3);
  std::string prefix = slash == std::string::npos ? "" : url.substr(slash);
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  return {url.substr(0, slash), prefix + "/add-checkpoint"};
}

struct Newest {
  std::int64_t size = 0;
  std::string note;
  core::SignedNote parsed;
};

// The newest checkpoint that carries a signature: an unsigned body (a
// checkpoint the log's signer has not signed yet) is no use to a witness.
Newest NewestSigned(act::LogStore& store) {
  for (const act::StoredCheckpoint& row :
       store.snapshot().checkpoints_below(std::numeric_limits<std::int64_t>::max(), 100)) {
    const std::string note = row.note.value_or("");
    try {
      return Newest{row.size, note, core::ParseSignedNote(note)};
    } catch (const core::ValidationError&) {
    }
  }
  throw std::runtime_error("act.checkpoints holds no signed checkpoint among its newest 100 (actctl log checkpoint)");
}

std::vector<core::Hash> ConsistencyProof(act::LogStore& store, std::int64_t old_size, std::int64_t size) {
  std::vector<core::Hash> proof;
  for (const std::string& hex : store.snapshot().consistency_proof(old_size, size)) {
    const auto hash = core::HashFromHex(hex);
    if (!hash) throw std::runtime_error("act.prove_consistency gave a malformed hash");
    proof.push_back(*hash);
  }
  return proof;
}

// "409 Conflict" names the size the witness last cosigned.
std::optional<std::uint64_t> ConflictSize(const httplib::Result& result) {
  if (!result || result->status != 409) return std::nullopt;
  const std::string& body = result->body;
  if (body.size() < 2 || body.back() != '\n') return std::nullopt;
  const std::string digits = body.substr(0, body.size() - 1);
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 19) return std::nullopt;
  return std::stoull(digits);
}

std::string Described(const httplib::Result& result) {
  if (!result) return fmt::format("no answer ({})", httplib::to_string(result.error()));
  std::string body = result->body.substr(0, 300);
  while (!body.empty() && body.back() == '\n') body.pop_back();
  return fmt::format("HTTP {}{}{}", result->status, body.empty() ? "" : ": ", body);
}

// Submits the checkpoint to one witness and stores its cosignatures; the
// reason it was refused, or nullopt.
std::optional<std::string> Submit(act::LogStore& store, const Newest& newest, const std::string& url,
                                  int timeout_s) {
  const WitnessUrl target = SplitUrl(url);
  httplib::Client client(target.base);
  client.set_connection_timeout(timeout_s, 0);
  client.set_read_timeout(timeout_s, 0);
  client.set_write_timeout(timeout_s, 0);
  const auto post = [&](std::uint64_t old_size) {
    const std::vector<core::Hash> proof =
        old_size == 0 ? std::vector<core::Hash>{}
                      : ConsistencyProof(store, static_cast<std::int64_t>(old_size), newest.size);
    const std::string body = core::FormatAddCheckpoint({old_size, proof, newest.note});
    return client.Post(target.path, body, "text/plain; charset=utf-8");
  };
  // The witness's size is not known here: ask from 0, and again once from
  // the size its "409 Conflict" names.
  httplib::Result result = post(0);
  if (const std::optional<std::uint64_t> seen = ConflictSize(result)) {
    if (*seen > static_cast<std::uint64_t>(newest.size))
      return fmt::format("it cosigned size {} of this log, beyond the newest checkpoint's {}", *seen, newest.size);
    result = post(*seen);
  }
  if (!result || result->status != 200) return Described(result);
  // The answer is signature lines: with the checkpoint text, a signed note.
  const std::string cosigned = newest.parsed.text + "\n" + result->body;
  try {
    core::ParseSignedNote(cosigned);
  } catch (const core::ValidationError& e) {
    return fmt::format("its answer is not signature lines: {}", e.what());
  }
  try {
    act::LogTransaction log = store.transaction();
    log.add_checkpoint_signature(cosigned);
    log.commit();
  } catch (const act::ConnectionError&) {
    throw;
  } catch (const act::Error& e) {
    return fmt::format("act.add_checkpoint_signature refused its cosignature: {}", OneLine(e.what()));
  }
  return std::nullopt;
}

int Witness(const Database& db, const LogWitnessArgs& args) {
  for (const std::string& url : args.urls) SplitUrl(url);  // unusable URLs before any request
  act::LogStore store(OpenPool(db));
  const Newest newest = NewestSigned(store);
  int refused = 0;
  for (const std::string& url : args.urls) {
    if (const std::optional<std::string> why = Submit(store, newest, url, args.timeout_s)) {
      fmt::print(stderr, "witness {} refused size {}: {}\n", url, newest.size, *why);
      ++refused;
    } else {
      fmt::print("witness {} cosigned size {}\n", url, newest.size);
    }
  }
  return refused == 0 ? kOk : kFailed;
}

}  // namespace

void AddLogWitness(CLI::App& log, const Database& db, Chosen& chosen) {
  auto args = std::make_shared<LogWitnessArgs>();
  CLI::App* witness = log.add_subcommand(
      "witness",
      "Submit the newest signed checkpoint in act.checkpoints to C2SP tlog-witnesses (actctl witness serve), each "
      "with a consistency proof from the size it cosigned last, and store their cosignatures with "
      "act.add_checkpoint_signature (each witness's cosigner key must be registered with act.register_log_key). "
      "Exit 0 when every witness cosigned, 1 when one refused (stderr names it and why), 2 for unusable options or "
      "no connection");
  witness->add_option("--witness", args->urls, "a witness's submission URL (http://host:port); repeatable")
      ->type_name("URL")
      ->allow_extra_args(false)
      ->required();
  witness->add_option("--timeout", args->timeout_s, "seconds to wait for a witness to connect, read or answer")
      ->type_name("SECONDS")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  witness->callback([&chosen, &db, args] { chosen.run = [&db, args] { return Witness(db, *args); }; });
}

}  // namespace actctl
