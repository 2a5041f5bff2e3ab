// The CPU calibration bench-check divides in-process scenarios by: fixed
// work shaped like the client's own (JSON parse, dump, a sort), so a slower
// or busier CPU slows it as much as it slows them.
#include <algorithm>
#include <random>
#include <vector>

#include "support.hpp"

namespace {

void cpu(benchmark::State& state) {
  nlohmann::json document = nlohmann::json::array();
  for (int i = 0; i < 200; ++i) document.push_back({{"stream", "s-" + std::to_string(i)}, {"version", i}, {"data", {{"by", i}}}});
  const std::string text = document.dump();
  std::vector<int> numbers(20000);
  std::mt19937 generator(42);
  bench::measure(state, [&] {
    for (int i = 0; i < 5; ++i) benchmark::DoNotOptimize(nlohmann::json::parse(text).dump());
    std::generate(numbers.begin(), numbers.end(), [&] { return static_cast<int>(generator()); });
    std::sort(numbers.begin(), numbers.end());
  });
}

}  // namespace

BENCHMARK(cpu)->Name("calibration/cpu")->Iterations(bench::iterations(200, 100));
BENCHMARK_MAIN();
