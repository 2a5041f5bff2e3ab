// actctl metrics: act.metrics() in the Prometheus text exposition format.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>
#include <string>

#include "command.hpp"
#include "database.hpp"

namespace actctl {

namespace {

// A label value with \, " and newlines escaped as the exposition format asks.
std::string Escaped(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string Labels(const nlohmann::json& labels) {
  if (!labels.is_object() || labels.empty()) return "";
  std::string out = "{";
  bool first = true;
  for (const auto& [key, value] : labels.items()) {
    if (!first) out += ",";
    first = false;
    out += fmt::format("{}=\"{}\"", key, Escaped(value.is_string() ? value.get<std::string>() : value.dump()));
  }
  return out + "}";
}

int Metrics(const Database& db) {
  const auto connection = Connect(db);
  pqxx::nontransaction txn{*connection};
  // Samples of one metric together, as the format requires.
  const pqxx::result result = txn.exec(
      "SELECT metric, labels::text, value FROM act.metrics() ORDER BY metric COLLATE \"C\", labels::text COLLATE \"C\"");
  std::string current;
  for (const pqxx::row& row : result) {
    const std::string metric = row[0].c_str();
    if (metric != current) {
      // Prometheus' naming rule: a cumulative counter ends in _total.
      fmt::print("# TYPE {} {}\n", metric, metric.ends_with("_total") ? "counter" : "gauge");
      current = metric;
    }
    if (row[2].is_null()) continue;  // no figure (an age with nothing waiting): no sample
    const nlohmann::json labels = row[1].is_null() ? nlohmann::json::object() : nlohmann::json::parse(row[1].c_str());
    fmt::print("{}{} {}\n", metric, Labels(labels), row[2].as<double>());
  }
  return kOk;
}

}  // namespace

void AddMetrics(CLI::App& app, const Database& db, Chosen& chosen) {
  CLI::App* metrics = app.add_subcommand(
      "metrics", "act.metrics() in the Prometheus text exposition format. Exit 1 on a database error");
  metrics->callback([&chosen, &db] { chosen.run = [&db] { return Metrics(db); }; });
}

}  // namespace actctl
