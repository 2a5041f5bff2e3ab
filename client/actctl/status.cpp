// actctl status: act.status() as aligned "name: value" lines, or one JSON object.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "act/monitor.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "pg_text.hpp"

namespace actctl {

namespace {

// act.status's columns in its order, each named as the function names it.
std::vector<std::pair<std::string, nlohmann::json>> Fields(const act::StoreStatus& status) {
  return {{"mode", status.mode},
          {"horizon", status.horizon},
          {"max_event_id", status.max_event_id},
          {"sealed_size", Json(status.sealed_size)},
          {"subscriptions", status.subscriptions},
          {"with_work", status.with_work},
          {"blocked", status.blocked},
          {"leased", status.leased},
          {"expired_leases", status.expired_leases},
          {"oldest_work_age", Json(status.oldest_work_age)},
          {"horizon_held_for", Json(status.horizon_held_for)},
          {"seal_stopped", Json(status.seal_stopped)}};
}

int Status(const Database& db, bool json) {
  const auto fields = Fields(act::Monitor(OpenPool(db)).status());
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
