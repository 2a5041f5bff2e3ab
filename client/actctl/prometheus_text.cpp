#include "prometheus_text.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

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

}  // namespace

std::string PrometheusText(const std::vector<act::MetricSample>& samples) {
  // Samples of one metric come together (act::Monitor::metrics orders them), as the format requires.
  std::string out;
  std::string current;
  for (const act::MetricSample& sample : samples) {
    if (sample.metric != current) {
      // Prometheus' naming rule: a cumulative counter ends in _total.
      out += fmt::format("# TYPE {} {}\n", sample.metric, sample.metric.ends_with("_total") ? "counter" : "gauge");
      current = sample.metric;
    }
    if (!sample.value) continue;  // no figure (an age with nothing waiting): no sample
    out += fmt::format("{}{} {}\n", sample.metric, Labels(sample.labels), *sample.value);
  }
  return out;
}

}  // namespace actctl
