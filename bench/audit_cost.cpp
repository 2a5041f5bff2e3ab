// The cost of App::audit on the store bench/suites/audit.sh seeds: an app
// whose state folds the seeded events ("E"), closes a stream at 100 of
// them (none reaches it) and snapshots, with a fixed reaction in the
// default lane, so every check of the audit reads its sample. Prints one
// record (bench/stats.hpp) with the findings of the last run.
// Usage: audit_cost RUNS (the PG* environment names the database)
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "act/act.hpp"
#include "stats.hpp"

namespace {

struct Seeded {
  int i = 0;
};
struct Tally {
  long long sum = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Seeded, i)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Tally, sum)

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 10;
  try {
    const auto tally = act::state<Tally>("Tally")
                           .patch<Seeded>("E", [](const Seeded& e, Tally s) { s.sum += e.i; return s; })
                           .on<Seeded>("seed")
                           .emit([](const Seeded& a, const Tally&) { return Seeded{a.i}; })
                           .snap_every(10)
                           .autocloses({.any = {.reaches = 100}})
                           .build();
    act::App app = act::app(std::string())
                       .with(tally)
                       .on<Seeded>("E")
                       .to("audit-bench-totals")
                       .handle("total", [](const Seeded&, act::ReactionContext&) {})
                       .build();
    bench::Samples samples;
    std::map<std::string, int> kinds;
    for (int run = 0; run < runs; ++run) {
      const auto start = bench::Clock::now();
      const std::vector<act::AuditFinding> findings = app.audit();
      samples.add(bench::milliseconds_since(start));
      kinds.clear();
      for (const act::AuditFinding& finding : findings) ++kinds[finding.kind];
    }
    nlohmann::json fields = samples.summary();
    fields["clients"] = 1;
    fields["findings"] = kinds;
    bench::print_record("client/audit/app", fields);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "audit_cost: %s\n", e.what());
    return 1;
  }
}
