#pragma once
// Streams that close themselves (StateBuilder::autocloses): a reaction on
// every event of the state looks at the stream's head and retires the
// stream, or trims it to a retention window, when its policy says so.
//
//   act::state<Ticket>("Ticket")...
//       .autocloses({.all = {.is = {"TicketClosed"}, .after = std::chrono::days(30)},
//                    .archive = [](const std::string& stream) { copy_to_cold_storage(stream); }})
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace act {

// Conditions on a stream's last domain event (snapshots and tombstones
// aside); those left unset take no part.
struct AutocloseWhen {
  std::vector<std::string> is{};              // it is one of these events
  std::optional<std::chrono::seconds> after{};  // it is at least this old (1 minute or more)
  std::optional<std::int64_t> reaches{};    // the stream holds this many domain events (1 or more)

  bool empty() const noexcept { return is.empty() && !after && !reaches; }
};

struct AutoclosePolicy {
  AutocloseWhen all{};  // retire the stream when every condition set here holds...
  AutocloseWhen any{};  // ...or when any one set here does
  // Otherwise keep only this much history: events older than it are
  // deleted up to the latest snapshot before that time (the state needs
  // snap()); the stream stays open. 1 day or more.
  std::optional<std::chrono::seconds> keep{};
  // Runs before anything of the stream is deleted, with its name (see CloseTarget::archive).
  std::function<void(const std::string& stream)> archive{};
};

// The hours (UTC, 0-23) in which autoclose may close streams; a handler
// outside them defers to the next opening. start > end spans midnight.
struct AutocloseWindow {
  int start_hour = 0;
  int end_hour = 0;
};

namespace detail {
struct StateModel;
// Throws std::invalid_argument naming what is wrong with a state's policy.
void check_autoclose(const StateModel& state);
}  // namespace detail

}  // namespace act
