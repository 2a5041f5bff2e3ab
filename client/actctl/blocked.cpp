// actctl blocked: the blocked subscriptions and their errors, from
// act.query_streams('{"blocked": true}').
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <pqxx/pqxx>
#include <string>

#include "command.hpp"
#include "database.hpp"

namespace actctl {

namespace {

struct BlockedArgs {
  std::optional<std::string> lane;
  bool json = false;
};

int Blocked(const Database& db, const BlockedArgs& args) {
  nlohmann::json filter = {{"blocked", true}};
  if (args.lane) filter["lane"] = *args.lane;
  const auto connection = Connect(db);
  pqxx::nontransaction txn{*connection};
  if (args.json) {
    const pqxx::row row = txn.exec_params1(
        "SELECT coalesce(jsonb_agg(to_jsonb(s) ORDER BY s.stream COLLATE \"C\"), '[]')::text "
        "FROM act.query_streams($1::jsonb, NULL, 0) s",
        filter.dump());
    fmt::print("{}\n", nlohmann::json::parse(row[0].c_str()).dump(2));
    return kOk;
  }
  const pqxx::result result = txn.exec_params(
      "SELECT stream, lane, at, retry, error FROM act.query_streams($1::jsonb, NULL, 0)", filter.dump());
  std::vector<std::vector<std::string>> rows;
  for (const pqxx::row& row : result) {
    std::vector<std::string> cells;
    for (const pqxx::field& field : row) cells.push_back(OneLine(Text(field)));
    rows.push_back(std::move(cells));
  }
  PrintTable({"stream", "lane", "at", "retry", "error"}, rows);
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
