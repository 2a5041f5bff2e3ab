#pragma once
// Closing the books (App::close): streams whose history is done are retired
// (a tombstone is all that is left), restarted (their final state seeded as
// a snapshot, the history deleted) or trimmed to a retention window.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "act/event.hpp"
#include "act/store.hpp"

namespace act {

struct CloseTarget {
  std::string stream;
  // Full close: true seeds the stream with a snapshot of its final state
  // (it lives on from version 0); false retires it (later commits fail
  // with StreamClosedError).
  bool restart = false;
  // Runs before anything of the stream is deleted, with the stream's name:
  // copy its events elsewhere. A throw aborts the whole close before any
  // stream is truncated (a retry runs every archive again).
  std::function<void(const std::string& stream)> archive{};
  // A retention window instead of a full close: the events before the
  // stream's latest snapshot created before this time are deleted, the
  // stream stays open. Not with restart.
  std::optional<Timestamp> before{};
};

struct CloseResult {
  std::map<std::string, Truncated> truncated;  // by stream: the seed, tombstone or boundary snapshot
  // Left as they were: a reaction still has work in them, a commit landed
  // while they were archived, no snapshot bounds the window, or a restart
  // of a state with personal data (a seed would keep one reader's view).
  std::vector<std::string> skipped;
};

}  // namespace act
