// actctl metrics: act.metrics() in the Prometheus text exposition format.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>

#include "act/monitor.hpp"
#include "command.hpp"
#include "connection.hpp"

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
  // Samples of one metric come together, as the format requires.
  std::string current;
  for (const act::MetricSample& sample : act::Monitor(OpenPool(db)).metrics()) {
    if (sample.metric != current) {
      // Prometheus' naming rule: a cumulative counter ends in _total.
      fmt::print("# TYPE {} {}\n", sample.metric, sample.metric.ends_with("_total") ? "counter" : "gauge");
      current = sample.metric;
    }
    if (!sample.value) continue;  // no figure (an age with nothing waiting): no sample
    fmt::print("{}{} {}\n", sample.metric, Labels(sample.labels), *sample.value);
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
