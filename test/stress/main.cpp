// The multi-process stress harness. Usage:
//   stress SCENARIO [--long] [--crash-command CMD]
// SCENARIO: commit-storm, same-stream, drain-under-churn, killed-worker,
// server-crash (which runs CMD to crash and restart the server). Connection
// from the PG* environment, in a database with the extension and nothing else.
#include <cstdio>
#include <exception>
#include <string>

#include "scenarios.hpp"

namespace {

struct Scenario {
  const char* name;
  int (*run)(const stress::Options&);
};

constexpr Scenario kScenarios[] = {
    {"commit-storm", stress::CommitStorm},
    {"same-stream", stress::SameStream},
    {"drain-under-churn", stress::DrainUnderChurn},
    {"killed-worker", stress::KilledWorker},
    {"server-crash", stress::ServerCrash},
};

int Usage() {
  std::fprintf(stderr, "usage: stress SCENARIO [--long] [--crash-command CMD]\nscenarios:");
  for (const Scenario& scenario : kScenarios) std::fprintf(stderr, " %s", scenario.name);
  std::fprintf(stderr, "\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage();
  const std::string name = argv[1];
  stress::Options options;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--long") {
      options.long_run = true;
    } else if (arg == "--crash-command" && i + 1 < argc) {
      options.crash_command = argv[++i];
    } else {
      return Usage();
    }
  }
  for (const Scenario& scenario : kScenarios) {
    if (name != scenario.name) continue;
    try {
      return scenario.run(options);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "stress %s: %s\n", scenario.name, error.what());
      return 1;
    }
  }
  return Usage();
}
