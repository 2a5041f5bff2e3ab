#pragma once
// Spreading a cycle's claimed targets over threads (Lane::threads).
#include <cstddef>
#include <cstdint>
#include <functional>

namespace act::react {

// Runs body(0) .. body(count - 1), each index once, on up to `threads`
// threads, the caller's among them; returns once all have run. body must
// not throw. Without threads to spare it all runs on the caller's.
void for_each_index(std::size_t count, std::int32_t threads, const std::function<void(std::size_t)>& body);

}  // namespace act::react
