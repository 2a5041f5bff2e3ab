// actctl import: another event store's events copied into pg_act in the
// source's global order, then checked against the source
// (docs/migrating.md). Resumable: a run continues after the last commit an
// earlier run made.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <pqxx/pqxx>
#include <string>

#include "act/pool.hpp"
#include "act/store.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "import_reader.hpp"
#include "import_check.hpp"
#include "import_run.hpp"
#include "import_source.hpp"

namespace actctl {

namespace {

struct ImportArgs {
  std::string from;
  std::string source_dsn;
  std::string act_pg_schema = "public";
  std::string act_pg_table = "events";
  std::string emmett_partition = "emt:default";
  bool dry_run = false;
  bool check_only = false;
  std::optional<std::int64_t> limit;
};

ImportSource SourceOf(const ImportArgs& args) {
  if (args.from == "act-pg") return ActPgSource(args.act_pg_schema, args.act_pg_table);
  if (args.from == "message-db") return MessageDbSource();
  return EmmettSource(args.emmett_partition);
}

int Check(pqxx::connection& source_connection, const ImportSource& source, act::Store& store) {
  const CheckReport check = CheckImport(source_connection, source, store);
  for (const std::string& line : check.differences) fmt::print("difference: {}\n", line);
  if (check.difference_count > 0) {
    fmt::print("check failed: {} differences between the source and pg_act ({} shown)\n", check.difference_count,
               check.differences.size());
    return kFailed;
  }
  fmt::print("check passed: {} events of {} streams in pg_act are the source's, in its order\n", check.events,
             check.streams);
  return kOk;
}

// The import's commits need not wait for their flush to disk each: a crash
// loses at most the last of them, and the next run continues after those
// that survived (the newest import key). libpq reads PGOPTIONS for the
// store's connections unless --dsn sets options itself.
void CommitWithoutFlushWait() {
  const char* options = std::getenv("PGOPTIONS");
  const std::string ours = std::string(options ? options : "") + " -c synchronous_commit=off";
  ::setenv("PGOPTIONS", ours.c_str(), 1);
}

int Import(const Database& db, const ImportArgs& args) {
  const ImportSource source = SourceOf(args);
  const auto source_connection = ConnectSource(args.source_dsn);
  if (!args.check_only && !args.dry_run) CommitWithoutFlushWait();
  auto store = act::Store(OpenPool(db));
  if (args.check_only) return Check(*source_connection, source, store);

  const ImportReport report = RunImport(*source_connection, source, store, {args.dry_run, args.limit});
  // The import reports only what a crash can no longer take back.
  if (!args.dry_run) store.wait_durable();
  const std::string resumed =
      report.resumed_after > 0 ? fmt::format(" after source position {} (imported before)", report.resumed_after) : "";
  if (args.dry_run) {
    fmt::print("dry run: would import {} events of {} streams in {} commits{}; nothing written\n", report.events,
               report.streams, report.commits, resumed);
    return kOk;
  }
  fmt::print("imported {} events of {} streams in {} commits{}\n", report.events, report.streams, report.commits,
             resumed);
  if (!report.complete) {
    fmt::print("stopped after {} events (--limit): run again to continue\n", report.events);
    return kOk;
  }
  return Check(*source_connection, source, store);
}

}  // namespace

void AddImport(CLI::App& app, const Database& db, Chosen& chosen) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* command = app.add_subcommand(
      "import",
      "Copy another event store's events into pg_act (the database of --dsn) in the source's global order, keeping "
      "streams, versions, names, data, metadata and times (docs/migrating.md), then check pg_act against the "
      "source. A run continues after what an earlier run imported. Exit 0 when imported and checked (or a dry run "
      "or --limit ended), 1 when the check finds a difference or on a database error, 2 for unusable arguments, a "
      "source event pg_act cannot hold, a target stream that does not continue where the source does, or no "
      "connection");
  command->add_option("--from", args->from, "the source store's kind")
      ->check(CLI::IsMember({"act-pg", "message-db", "emmett"}))
      ->required();
  command->add_option("--source-dsn", args->source_dsn, "libpq connection string of the source's database")
      ->type_name("CONNINFO")
      ->required();
  command->add_option("--act-pg-schema", args->act_pg_schema, "act-pg: the store's schema")->capture_default_str();
  command->add_option("--act-pg-table", args->act_pg_table, "act-pg: the store's table")->capture_default_str();
  command->add_option("--emmett-partition", args->emmett_partition, "emmett: the partition to import")
      ->capture_default_str();
  command->add_flag("--dry-run", args->dry_run,
                    "read and judge every event still to import, and say what a run would write; write nothing");
  command->add_option("--limit", args->limit, "stop after this many events (run again to continue)")
      ->check(CLI::PositiveNumber);
  command->add_flag("--check-only", args->check_only, "import nothing: only compare pg_act with the source");
  command->callback([&chosen, &db, args] { chosen.run = [&db, args] { return Import(db, *args); }; });
}

}  // namespace actctl
