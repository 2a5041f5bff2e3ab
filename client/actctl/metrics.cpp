// actctl metrics: act.metrics() in the Prometheus text exposition format.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "act/monitor.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "prometheus_text.hpp"

namespace actctl {

namespace {

int Metrics(const Database& db) {
  fmt::print("{}", PrometheusText(act::Monitor(OpenPool(db)).metrics()));
  return kOk;
}

}  // namespace

void AddMetrics(CLI::App& app, const Database& db, Chosen& chosen) {
  CLI::App* metrics = app.add_subcommand(
      "metrics", "act.metrics() in the Prometheus text exposition format. Exit 1 on a database error");
  metrics->callback([&chosen, &db] { chosen.run = [&db] { return Metrics(db); }; });
}

}  // namespace actctl
