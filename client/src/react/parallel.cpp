#include "react/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>
#include <vector>

namespace act::react {

void for_each_index(std::size_t count, std::int32_t threads, const std::function<void(std::size_t)>& body) {
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t index = next.fetch_add(1); index < count; index = next.fetch_add(1)) body(index);
  };
  const std::size_t wanted = std::min(static_cast<std::size_t>(std::max<std::int32_t>(threads, 1)), count);
  std::vector<std::jthread> helpers;  // joined when this returns
  if (wanted > 1) helpers.reserve(wanted - 1);
  for (std::size_t helper = 1; helper < wanted; ++helper) {
    try {
      helpers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no thread to be had: the caller's does the rest
    }
  }
  work();
}

}  // namespace act::react
