#pragma once
// One audit record per action the inspector applies: a line on stderr,
// always, and an event in the store's own log when an audit stream is set.
// The log, not a table of our own: it needs no schema change, any act_reader
// can query it (act.query on the stream, or the inspector's /log), and the
// hash chain and the sealed Merkle tree make a record that was later changed
// or removed show up in act.verify and act.verify_log like any other event.
// The role that may run an action (act_admin) may also commit; when the
// commit fails anyway, stderr says so and the action's answer carries it.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "act/store.hpp"

namespace actctl::inspector {

inline constexpr const char* kAuditEventName = "InspectorActionApplied";

class ActionAudit {
 public:
  ActionAudit(act::Store& store, std::string stream) : store_(store), stream_(std::move(stream)) {}

  // `action` holds what was asked and what changed; `client` is the peer's address.
  // Returns why the event could not be written, or none.
  std::optional<std::string> record(const nlohmann::json& action, const std::string& client);

 private:
  act::Store& store_;
  std::string stream_;
};

}  // namespace actctl::inspector
