#pragma once
// act.metrics() samples in the Prometheus text exposition format: what
// `actctl metrics` prints and the inspector's /metrics serves.
#include <string>
#include <vector>

#include "act/monitor.hpp"

namespace actctl {

std::string PrometheusText(const std::vector<act::MetricSample>& samples);

}  // namespace actctl
