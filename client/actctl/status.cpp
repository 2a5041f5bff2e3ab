// actctl status: act.status() as aligned "name: value" lines, or one JSON object.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "act/monitor.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "pg_text.hpp"
#include "status_json.hpp"

namespace actctl {

namespace {

int Status(const Database& db, bool json) {
  const auto fields = StatusFields(act::Monitor(OpenPool(db)).status());
  if (json) {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& [name, value] : fields) object[name] = value;
    fmt::print("{}\n", object.dump(2));
    return kOk;
  }
  std::size_t width = 0;
  for (const auto& field : fields) width = std::max(width, field.first.size());
  for (const auto& [name, value] : fields) fmt::print("{:<{}} {}\n", name + ":", width + 1, Cell(value));
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
