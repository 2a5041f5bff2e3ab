// actctl lag: act.lag(), the subscriptions with work and the blocked ones
// (with their errors), oldest waiting event first, as a table or a JSON array.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "act/monitor.hpp"
#include "arguments.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "pg_text.hpp"
#include "printable.hpp"
#include "table.hpp"

namespace actctl {

namespace {

struct LagArgs {
  std::optional<std::string> lane;
  std::string limit = "20";
  bool json = false;
};

// A row as to_jsonb renders it: act.lag's column names.
nlohmann::json RowJson(const act::LagRow& row) {
  return {{"stream", row.stream},
          {"lane_name", row.lane},
          {"at", row.at},
          {"work_mark", Json(row.work_mark)},
          {"waiting_id", Json(row.waiting_id)},
          {"waiting_since", Json(row.waiting_since)},
          {"age", Json(row.age)},
          {"blocked", row.blocked},
          {"error", Json(row.error)},
          {"leased_by", Json(row.leased_by)},
          {"leased_until", Json(row.leased_until)},
          {"retry", row.retry}};
}

int Lag(const Database& db, const LagArgs& args) {
  const std::uint64_t limit = ParseCount("--limit", args.limit);
  if (limit < 1 || limit > 2147483647) throw UsageError(fmt::format("--limit: {} is not between 1 and 2147483647", limit));
  const std::vector<act::LagRow> lag = act::Monitor(OpenPool(db)).lag(args.lane, static_cast<std::int32_t>(limit));
  if (args.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const act::LagRow& row : lag) rows.push_back(RowJson(row));
    fmt::print("{}\n", rows.dump(2));
    return kOk;
  }
  std::vector<std::vector<std::string>> rows;
  for (const act::LagRow& row : lag) {
    const nlohmann::json cells = RowJson(row);
    // A handler's error is any text: one line, no control characters.
    std::vector<std::string> line;
    for (const char* column : {"stream", "lane_name", "at", "work_mark", "age"})
      line.push_back(Printable(Cell(cells[column])));
    line.push_back(row.blocked ? "yes" : "no");
    for (const char* column : {"leased_by", "error"}) line.push_back(Printable(Cell(cells[column])));
    rows.push_back(std::move(line));
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
