// actctl unblock / reset / release / prioritize / defer: the operator functions over a
// selector built from --stream, --lane, --blocked or --selector. A dry run by
// default lists the rows that would change (through act.query_streams and
// the same selector); --yes applies and prints how many rows changed.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "command.hpp"
#include "database.hpp"

namespace actctl {

namespace {

enum class Operator { kUnblock, kReset, kRelease, kPrioritize, kDefer };

struct OperatorArgs {
  std::optional<std::string> stream, lane, selector, priority, until;
  bool regex = false, blocked = false, yes = false;
};

// The selector jsonb: an object from the options, or --selector's value.
nlohmann::json Selector(const OperatorArgs& args) {
  if (args.selector) {
    if (args.stream || args.lane || args.blocked || args.regex)
      throw UsageError("--selector cannot be combined with --stream, --regex, --lane or --blocked");
    nlohmann::json selector;
    try {
      selector = nlohmann::json::parse(*args.selector);
    } catch (const nlohmann::json::parse_error&) {
      throw UsageError(fmt::format("--selector: \"{}\" is not JSON", *args.selector));
    }
    if (selector.is_array()) {
      for (const auto& name : selector)
        if (!name.is_string()) throw UsageError("--selector: an array selector holds stream names (strings) only");
    } else if (!selector.is_object()) {
      throw UsageError("--selector: a selector is a JSON object or an array of stream names");
    }
    return selector;
  }
  if (args.regex && !args.stream) throw UsageError("--regex applies to --stream, which is missing");
  nlohmann::json selector = nlohmann::json::object();
  if (args.stream) {
    selector["stream"] = *args.stream;
    if (!args.regex) selector["stream_exact"] = true;
  }
  if (args.lane) selector["lane"] = *args.lane;
  if (args.blocked) selector["blocked"] = true;
  if (selector.empty())
    throw UsageError("no selector: give --stream, --lane, --blocked or --selector (actctl never acts on every "
                     "subscription by default; --selector '{}' does)");
  return selector;
}

// Whether the operator changes a selected row (the SQL functions count only those).
bool Changes(Operator op, const pqxx::row& row, int priority) {
  switch (op) {
    case Operator::kUnblock:
      return !row["blocked"].is_null() && row["blocked"].as<bool>();
    case Operator::kRelease:
      return !row["leased_by"].is_null();
    case Operator::kPrioritize:
      return row["priority"].is_null() || row["priority"].as<int>() != priority;
    case Operator::kReset:
    case Operator::kDefer:
      break;
  }
  return true;
}

int Apply(const Database& db, Operator op, const OperatorArgs& args) {
  const nlohmann::json selector = Selector(args);
  int priority = 0;
  if (op == Operator::kPrioritize) {
    const std::string& text = *args.priority;
    const bool negative = !text.empty() && text[0] == '-';
    const std::uint64_t magnitude = ParseCount("--priority", negative ? text.substr(1) : text);
    if (magnitude > 2147483647) throw UsageError(fmt::format("--priority: {} is beyond a 32-bit integer", text));
    priority = negative ? -static_cast<int>(magnitude) : static_cast<int>(magnitude);
  }
  const auto connection = Connect(db);
  pqxx::work txn{*connection};
  try {
    if (op == Operator::kDefer) txn.exec_params("SELECT $1::timestamptz", *args.until);  // a bad time: exit 2
    if (!args.yes) {
      // The rows the selector chooses: an object is a query_streams filter as
      // it is; an array names rows, each looked up exactly.
      std::vector<nlohmann::json> filters;
      if (selector.is_array()) {
        for (const auto& name : selector) filters.push_back({{"stream", name}, {"stream_exact", true}});
      } else {
        filters.push_back(selector);
      }
      std::vector<std::vector<std::string>> rows;
      for (const auto& filter : filters) {
        const pqxx::result result = txn.exec_params(
            "SELECT stream, lane, at, blocked, priority, error, leased_by FROM act.query_streams($1::jsonb, NULL, "
            "0)",
            filter.dump());
        for (const pqxx::row& row : result) {
          if (!Changes(op, row, priority)) continue;
          rows.push_back({Text(row["stream"]), Text(row["lane"]), Text(row["at"]),
                          row["blocked"].is_null() ? "-" : (row["blocked"].as<bool>() ? "yes" : "no"),
                          Text(row["priority"]), Text(row["leased_by"]), OneLine(Text(row["error"]))});
        }
      }
      if (!rows.empty()) PrintTable({"stream", "lane", "at", "blocked", "priority", "leased by", "error"}, rows);
      fmt::print("dry run: {} subscriptions would change; add --yes to apply\n", rows.size());
      return kOk;
    }
    pqxx::row row;
    switch (op) {
      case Operator::kUnblock:
        row = txn.exec_params1("SELECT act.unblock($1::jsonb)", selector.dump());
        break;
      case Operator::kReset:
        row = txn.exec_params1("SELECT act.reset($1::jsonb)", selector.dump());
        break;
      case Operator::kRelease:
        row = txn.exec_params1("SELECT act.release($1::jsonb)", selector.dump());
        break;
      case Operator::kPrioritize:
        row = txn.exec_params1("SELECT act.prioritize($1::jsonb, $2)", selector.dump(), priority);
        break;
      case Operator::kDefer:
        row = txn.exec_params1("SELECT act.defer($1::jsonb, $2::timestamptz)", selector.dump(), *args.until);
        break;
    }
    txn.commit();
    fmt::print("{} subscriptions changed\n", row[0].as<long long>());
  } catch (const pqxx::failure&) {
    RethrowClassified(*connection);  // a refused selector or argument is exit 2, not a database failure
  }
  return kOk;
}

void AddOperator(CLI::App& app, const Database& db, Chosen& chosen, Operator op, const char* name,
                 const char* description) {
  auto args = std::make_shared<OperatorArgs>();
  CLI::App* command = app.add_subcommand(
      name, fmt::format("{} A dry run unless --yes. Exit 1 on a database error, 2 for unusable arguments (no "
                        "selector among them)",
                        description));
  command->add_option("--stream", args->stream, "the subscription's stream, exactly (a pattern with --regex)")
      ->type_name("NAME");
  command->add_flag("--regex", args->regex, "--stream is a regular expression");
  command->add_option("--lane", args->lane, "only rows of this lane")->type_name("LANE");
  command->add_flag("--blocked", args->blocked, "only blocked rows");
  command->add_option("--selector", args->selector,
                      "a selector as act's operators take it: a JSON object (stream, stream_exact, source, "
                      "source_exact, blocked, lane) or an array of stream names; not with the options above")
      ->type_name("JSON");
  if (op == Operator::kPrioritize)
    command->add_option("--priority", args->priority, "the new priority")->type_name("N")->required();
  if (op == Operator::kDefer)
    command->add_option("--until", args->until, "unclaimable until this time (a timestamptz)")
        ->type_name("TIMESTAMP")
        ->required();
  command->add_flag("--yes", args->yes, "apply, instead of listing the rows that would change");
  command->callback([&chosen, &db, args, op] { chosen.run = [&db, args, op] { return Apply(db, op, *args); }; });
}

}  // namespace

void AddOperators(CLI::App& app, const Database& db, Chosen& chosen) {
  AddOperator(app, db, chosen, Operator::kUnblock, "unblock",
              "Unblock the selected blocked subscriptions (act.unblock): they resume at their watermark.");
  AddOperator(app, db, chosen, Operator::kReset, "reset",
              "Rewind the selected subscriptions to replay from the start (act.reset).");
  AddOperator(app, db, chosen, Operator::kRelease, "release",
              "Drop the leases of the selected subscriptions (act.release): any worker may claim them at once, at "
              "their watermark; retries and blocks stay.");
  AddOperator(app, db, chosen, Operator::kPrioritize, "prioritize",
              "Set the priority of the selected subscriptions (act.prioritize).");
  AddOperator(app, db, chosen, Operator::kDefer, "defer",
              "Make the selected subscriptions unclaimable until --until (act.defer).");
}

}  // namespace actctl
