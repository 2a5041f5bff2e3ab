// actctl blocked: the blocked subscriptions and their errors, from
// act.query_streams('{"blocked": true}').
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "act/store.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "pg_text.hpp"
#include "subscription_json.hpp"
#include "table.hpp"

namespace actctl {

namespace {

struct BlockedArgs {
  std::optional<std::string> lane;
  bool json = false;
};

int Blocked(const Database& db, const BlockedArgs& args) {
  act::StreamFilter filter;
  filter.blocked = true;
  filter.lane = args.lane;
  // max_streams 0: every row, ordered by stream in the C collation.
  const std::vector<act::Subscription> rows = act::Store(OpenPool(db)).query_streams(filter, std::nullopt, 0);
  if (args.json) {
    nlohmann::json array = nlohmann::json::array();
    for (const act::Subscription& row : rows) array.push_back(SubscriptionJson(row));
    fmt::print("{}\n", array.dump(2));
    return kOk;
  }
  std::vector<std::vector<std::string>> cells;
  for (const act::Subscription& row : rows) {
    std::vector<std::string> line;
    for (const std::string& cell :
         {row.stream, row.lane, std::to_string(row.at), std::to_string(row.retry), Cell(Json(row.error))})
      line.push_back(OneLine(cell));
    cells.push_back(std::move(line));
  }
  PrintTable({"stream", "lane", "at", "retry", "error"}, cells);
  return kOk;
}

}  // namespace

void AddBlocked(CLI::App& app, const Database& db, Chosen& chosen) {
  auto args = std::make_shared<BlockedArgs>();
  CLI::App* blocked = app.add_subcommand(
      "blocked", "The blocked subscriptions and their errors. Exit 1 on a database error");
  blocked->add_option("--lane", args->lane, "only this lane")->type_name("LANE");
  blocked->add_flag("--json", args->json, "print a JSON array of the subscription rows");
  blocked->callback([&chosen, &db, args] { chosen.run = [&db, args] { return Blocked(db, *args); }; });
}

}  // namespace actctl
