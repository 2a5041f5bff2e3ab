#pragma once
// What every actctl command shares: the exit codes, how a command reports
// unusable arguments, and how each file adds its commands to the tree.
#include <functional>
#include <stdexcept>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace actctl {

// Exit codes, the same for every command.
inline constexpr int kOk = 0;        // the command did its job; a check held
inline constexpr int kFailed = 1;    // a check did not hold, or a database error (one line on stderr says which)
inline constexpr int kUnusable = 2;  // arguments that cannot be used, or no connection (one line on stderr says why)
inline constexpr int kBroken = 3;    // verify: a stream's hash chain does not verify (stdout names it); apart
                                     // from kFailed so that a script can tell a tampered log from an outage

// Thrown by a command for arguments CLI11 cannot judge alone (bad hex, an
// index beyond the size...): main prints the message and exits kUnusable.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The command chosen on the command line: a parsed subcommand sets it, main
// runs it after parsing succeeds and exits with what it returns.
using Run = std::function<int()>;
struct Chosen {
  Run run;
};

struct Database;  // connection.hpp: the connection options every database command reads

// One function per command file; each adds its subcommands under `parent`.
void AddLogVerify(CLI::App& log, Chosen& chosen);                       // log_verify.cpp
void AddLogNote(CLI::App& log, Chosen& chosen);                         // log_note.cpp: vkey, sign, verify-note
void AddLogCheckpoint(CLI::App& log, const Database& db, Chosen& chosen);  // log_checkpoint.cpp
void AddLogAudit(CLI::App& log, const Database& db, Chosen& chosen);       // log_audit.cpp
void AddLogExport(CLI::App& log, const Database& db, Chosen& chosen);      // log_export.cpp
void AddLogWitness(CLI::App& log, const Database& db, Chosen& chosen);     // log_witness.cpp
void AddWitness(CLI::App& witness, Chosen& chosen);                     // witness_serve.cpp: serve, vkey
void AddStatus(CLI::App& app, const Database& db, Chosen& chosen);      // status.cpp
void AddAudit(CLI::App& app, const Database& db, Chosen& chosen);       // health_audit.cpp: the store's health
void AddLag(CLI::App& app, const Database& db, Chosen& chosen);         // lag.cpp
void AddBlocked(CLI::App& app, const Database& db, Chosen& chosen);     // blocked.cpp
void AddMetrics(CLI::App& app, const Database& db, Chosen& chosen);     // metrics.cpp
void AddOperators(CLI::App& app, const Database& db, Chosen& chosen);   // operators.cpp: unblock, reset, release, prioritize, defer
void AddTail(CLI::App& app, const Database& db, Chosen& chosen);        // tail.cpp
void AddVerify(CLI::App& app, const Database& db, Chosen& chosen);      // verify.cpp
void AddImport(CLI::App& app, const Database& db, Chosen& chosen);      // import.cpp: --from act-pg, message-db, emmett
void AddServe(CLI::App& app, const Database& db, Chosen& chosen);       // inspector/serve.cpp: the web inspector

}  // namespace actctl
