// actctl status: act.status() as aligned "name: value" lines, or one JSON object.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "command.hpp"
#include "database.hpp"

namespace actctl {

namespace {

int Status(const Database& db, bool json) {
  const auto connection = Connect(db);
  pqxx::nontransaction txn{*connection};
  if (json) {
    const pqxx::row row = txn.exec1("SELECT to_jsonb(s)::text FROM act.status() s");
    fmt::print("{}\n", nlohmann::json::parse(row[0].c_str()).dump(2));
    return kOk;
  }
  const pqxx::row row = txn.exec1("SELECT * FROM act.status()");
  std::size_t width = 0;
  for (const pqxx::field& field : row) width = std::max(width, std::string{field.name()}.size());
  for (const pqxx::field& field : row) fmt::print("{:<{}} {}\n", std::string{field.name()} + ":", width + 1, Text(field));
  return kOk;
}

}  // namespace

void AddStatus(CLI::App& app, const Database& db, Chosen& chosen) {
  auto json = std::make_shared<bool>(false);
  CLI::App* status = app.add_subcommand("status", "The store's figures from act.status(): mode, horizon, work, blocked "
                                                  "and leased subscriptions. Exit 1 on a database error");
  status->add_flag("--json", *json, "print one JSON object");
  status->callback([&chosen, &db, json] { chosen.run = [&db, json] { return Status(db, *json); }; });
}

}  // namespace actctl
