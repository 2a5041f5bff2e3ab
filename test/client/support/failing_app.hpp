#pragma once
// An app whose worker meets a failure for good, and what it wrote meanwhile.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "support/counter_app.hpp"
#include "support/recorder.hpp"

namespace act::test {

// builder plus a reaction to Incremented from source into target that always
// fails for good, so the target blocks at once.
inline App failing_app(AppBuilder builder, const std::string& target, const std::string& source) {
  return std::move(builder)
      .on<Incremented>("Incremented")
      .to(Route{target, source})
      .handle("print_label", [](const Incremented&, ReactionContext&) { throw NonRetryableError("printer on fire"); })
      .build();
}

// Starts the app's workers, commits one Incremented to source, waits until
// target is blocked and shuts the workers down (their log lines are written
// by then). What went to stderr meanwhile; nullopt if the target never blocked.
inline std::optional<std::string> stderr_until_blocked(App& app, Store& store, const std::string& source,
                                                       const std::string& target) {
  testing::internal::CaptureStderr();
  app.start();
  app.do_action("increment", {source, kAnn, {}}, Increment{1});
  const bool blocked = eventually([&] {
    const auto rows = store.query_streams(StreamFilter::exactly(target));
    return !rows.empty() && rows.front().blocked;
  });
  app.shutdown();
  std::string written = testing::internal::GetCapturedStderr();
  if (!blocked) return std::nullopt;
  return written;
}

}  // namespace act::test
