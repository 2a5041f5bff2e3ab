#pragma once
// What a NOTIFY act_commit payload says about the commit it announces: its
// stream and its last event's id, when the payload names them
// (act.notify_payload = names; a position payload names no stream).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace act::react {

struct CommitNotice {
  std::string stream;
  std::int64_t last_id = 0;
};

// nullopt for a payload that names no stream, or that is not ours.
std::optional<CommitNotice> read_commit_notice(std::string_view payload);

}  // namespace act::react
