// actctl: pg_act's operator and auditor tool. Each command lives in its own
// file and adds itself to the tree below through a function in command.hpp.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <pqxx/except>
#include <string>

#include "act/errors.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "table.hpp"

#ifndef ACT_VERSION
#define ACT_VERSION "unknown"
#endif

int main(int argc, char** argv) {
  CLI::App app{"pg_act's operator and auditor tool", "actctl"};
  app.set_version_flag("--version", ACT_VERSION);
  app.require_subcommand(1);
  actctl::Chosen chosen;
  actctl::Database db;
  app.add_option("--dsn", db.dsn,
                 "libpq connection string for the database commands (default: the PG* environment variables)")
      ->type_name("CONNINFO");
  app.fallthrough();  // --dsn after the command name too

  CLI::App* log = app.add_subcommand("log", "The verifiable log: proofs and checkpoints");
  log->require_subcommand(1);
  actctl::AddLogVerify(*log, chosen);
  actctl::AddLogNote(*log, chosen);
  actctl::AddLogCheckpoint(*log, db, chosen);
  actctl::AddLogAudit(*log, db, chosen);
  actctl::AddLogExport(*log, db, chosen);
  actctl::AddLogWitness(*log, db, chosen);
  CLI::App* witness = app.add_subcommand("witness", "A C2SP tlog-witness that cosigns pg_act logs' checkpoints");
  witness->require_subcommand(1);
  actctl::AddWitness(*witness, chosen);
  actctl::AddStatus(app, db, chosen);
  actctl::AddAudit(app, db, chosen);
  actctl::AddLag(app, db, chosen);
  actctl::AddBlocked(app, db, chosen);
  actctl::AddMetrics(app, db, chosen);
  actctl::AddOperators(app, db, chosen);
  actctl::AddTail(app, db, chosen);
  actctl::AddVerify(app, db, chosen);
  actctl::AddImport(app, db, chosen);
  actctl::AddServe(app, db, chosen);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "actctl: {} (see --help)\n", e.what());
    return actctl::kUnusable;
  }
  try {
    return chosen.run ? chosen.run() : actctl::kUnusable;
  } catch (const actctl::UsageError& e) {
    fmt::print(stderr, "actctl: {}\n", e.what());
    return actctl::kUnusable;
  } catch (const act::ConnectionError& e) {
    // what() is "OPERATION: message": say instead which of the two it was.
    const std::string reason = std::string(e.what()).substr(e.operation().size() + 2);
    fmt::print(stderr, "actctl: {}: {}\n", e.operation() == "connect" ? "cannot connect" : "connection lost",
               actctl::OneLine(reason));
    return actctl::kUnusable;
  } catch (const act::ValidationError& e) {  // the server refused an argument (SQLSTATE class 22)
    fmt::print(stderr, "actctl: {}\n", actctl::OneLine(e.what()));
    return actctl::kUnusable;
  } catch (const act::Error& e) {  // a database error; pg_act missing says what to do
    fmt::print(stderr, "actctl: {}\n", actctl::OneLine(e.what()));
    return actctl::kFailed;
  } catch (const pqxx::broken_connection& e) {  // actctl import's source database
    fmt::print(stderr, "actctl: connection to the source lost: {}\n", actctl::OneLine(e.what()));
    return actctl::kUnusable;
  } catch (const std::exception& e) {
    fmt::print(stderr, "actctl: {}\n", actctl::OneLine(e.what()));  // libpq's messages end in a newline
    return actctl::kFailed;
  }
}
