// actctl unblock / reset / release / prioritize / defer: the operator functions over a
// selector built from --stream, --lane, --blocked or --selector. A dry run by
// default lists the rows that would change (through act.query_streams and
// the same selector); --yes applies and prints how many rows changed.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "act/core/errors.hpp"
#include "act/core/stream_selector.hpp"
#include "act/store.hpp"
#include "arguments.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "operator_calls.hpp"
#include "table.hpp"

namespace actctl {

namespace {

struct OperatorArgs {
  std::optional<std::string> stream, lane, selector, priority, until;
  bool regex = false, blocked = false, yes = false;
};

// The selected rows: the options' fields, or --selector's value read as
// the operator functions read it (core's parser, so its refusals are theirs).
act::StreamFilter Selector(const OperatorArgs& args) {
  if (args.selector) {
    if (args.stream || args.lane || args.blocked || args.regex)
      throw UsageError("--selector cannot be combined with --stream, --regex, --lane or --blocked");
    nlohmann::json json;
    try {
      json = nlohmann::json::parse(*args.selector);
    } catch (const nlohmann::json::parse_error&) {
      throw UsageError(fmt::format("--selector: \"{}\" is not JSON", *args.selector));
    }
    if (json.is_array()) {
      for (const auto& name : json)
        if (!name.is_string()) throw UsageError("--selector: an array selector holds stream names (strings) only");
    } else if (!json.is_object()) {
      throw UsageError("--selector: a selector is a JSON object or an array of stream names");
    }
    act::core::StreamSelector parsed;
    try {
      parsed = act::core::ParseSelector(json, act::core::SelectorUse::kAdmin);
    } catch (const act::core::ValidationError& e) {
      throw UsageError(e.what());
    }
    if (parsed.streams) return act::StreamFilter::named(std::move(*parsed.streams));
    act::StreamFilter filter;
    filter.stream = std::move(parsed.stream);
    filter.stream_exact = parsed.stream_exact;
    filter.source = std::move(parsed.source);
    filter.source_exact = parsed.source_exact;
    filter.blocked = parsed.blocked;
    filter.lane = std::move(parsed.lane);
    return filter;
  }
  if (args.regex && !args.stream) throw UsageError("--regex applies to --stream, which is missing");
  if (!args.stream && !args.lane && !args.blocked)
    throw UsageError("no selector: give --stream, --lane, --blocked or --selector (actctl never acts on every "
                     "subscription by default; --selector '{}' does)");
  act::StreamFilter filter;
  filter.stream = args.stream;
  filter.stream_exact = !args.regex;
  filter.lane = args.lane;
  if (args.blocked) filter.blocked = true;
  return filter;
}

// The rows that would change, as a table and a count.
void DryRun(act::Store& store, Operator op, const act::StreamFilter& selector, const OperatorValues& values) {
  std::vector<std::vector<std::string>> rows;
  for (const act::Subscription& row : RowsThatChange(store, op, selector, values))
    rows.push_back({row.stream, row.lane, std::to_string(row.at), row.blocked ? "yes" : "no",
                    std::to_string(row.priority), row.leased_by.value_or("-"), OneLine(row.error.value_or("-"))});
  if (!rows.empty()) PrintTable({"stream", "lane", "at", "blocked", "priority", "leased by", "error"}, rows);
  fmt::print("dry run: {} subscriptions would change; add --yes to apply\n", rows.size());
}

int Apply(const Database& db, Operator op, const OperatorArgs& args) {
  const act::StreamFilter selector = Selector(args);
  OperatorValues values;
  if (op == Operator::kPrioritize) {
    const std::string& text = *args.priority;
    const bool negative = !text.empty() && text[0] == '-';
    const std::uint64_t magnitude = ParseCount("--priority", negative ? text.substr(1) : text);
    if (magnitude > 2147483647) throw UsageError(fmt::format("--priority: {} is beyond a 32-bit integer", text));
    values.priority = negative ? -static_cast<int>(magnitude) : static_cast<int>(magnitude);
  }
  act::Store store(OpenPool(db));
  // Read as the server reads a timestamptz; a time it cannot read is exit 2, dry run or not.
  if (op == Operator::kDefer) values.until = store.server_time(*args.until);
  if (!args.yes) {
    DryRun(store, op, selector, values);
    return kOk;
  }
  const std::int32_t changed = ApplyOperator(store, op, selector, values);
  fmt::print("{} subscriptions changed\n", changed);
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
