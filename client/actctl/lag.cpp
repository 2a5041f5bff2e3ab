// actctl lag: act.lag(), the subscriptions with work and the blocked ones
// (with their errors), oldest waiting event first, as a table or a JSON array.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <pqxx/pqxx>
#include <string>

#include "arguments.hpp"
#include "command.hpp"
#include "database.hpp"
#include "printable.hpp"

namespace actctl {

namespace {

struct LagArgs {
  std::optional<std::string> lane;
  std::string limit = "20";
  bool json = false;
};

int Lag(const Database& db, const LagArgs& args) {
  const std::uint64_t limit = ParseCount("--limit", args.limit);
  if (limit < 1 || limit > 2147483647) throw UsageError(fmt::format("--limit: {} is not between 1 and 2147483647", limit));
  const int max_rows = static_cast<int>(limit);
  const auto connection = Connect(db);
  pqxx::nontransaction txn{*connection};
  if (args.json) {
    const pqxx::row row = txn.exec_params1(
        "SELECT coalesce(jsonb_agg(to_jsonb(l)), '[]')::text FROM act.lag($1, $2) l", args.lane, max_rows);
    fmt::print("{}\n", nlohmann::json::parse(row[0].c_str()).dump(2));
    return kOk;
  }
  const pqxx::result result =
      txn.exec_params("SELECT stream, lane_name, at, work_mark, age, blocked, leased_by, error FROM act.lag($1, $2)",
                      args.lane, max_rows);
  std::vector<std::vector<std::string>> rows;
  for (const pqxx::row& row : result) {
    std::vector<std::string> cells;
    // A handler's error is any text: one line, no control characters.
    for (const pqxx::field& field : row) cells.push_back(Printable(Text(field)));
    cells[5] = row[5].is_null() ? "-" : (row[5].as<bool>() ? "yes" : "no");
    rows.push_back(std::move(cells));
  }
  PrintTable({"stream", "lane", "at", "work mark", "age", "blocked", "leased by", "error"}, rows);
  return kOk;
}

}  // namespace

void AddLag(CLI::App& app, const Database& db, Chosen& chosen) {
  auto args = std::make_shared<LagArgs>();
  CLI::App* lag = app.add_subcommand("lag", "The subscriptions with work and the blocked ones from act.lag(), the "
                                            "oldest waiting event first. Exit 1 on a database error");
  lag->add_option("--lane", args->lane, "only this lane")->type_name("LANE");
  lag->add_option("--limit", args->limit, "at most N rows (default 20)")->type_name("N");
  lag->add_flag("--json", args->json, "print a JSON array of act.lag's rows");
  lag->callback([&chosen, &db, args] { chosen.run = [&db, args] { return Lag(db, *args); }; });
}

}  // namespace actctl
