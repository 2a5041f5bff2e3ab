#pragma once
// Reading the tags of stored events (act.event_tags) one event at a time,
// for the scans that hand events out or rehash them (act.verify,
// act.verify_log, act.claim_events).
#include <string>
#include <vector>

#include "error_bridge.hpp"

namespace act::pg {

class EventTagReader {
 public:
  // Looks once whether any event has a tag: a log without tags pays no
  // lookup per event. (A deleted tag row still shows in act.verify: the
  // event's stored hash covers its tags.)
  EventTagReader();
  // The event's tags in the order given, through the calling statement's snapshot.
  void Read(int64 id, std::vector<std::string>& tags) const;

 private:
  bool any_tags_ = false;
};

}  // namespace act::pg
