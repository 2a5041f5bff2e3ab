#pragma once
// One event as tail prints it: a line for people, control characters
// escaped and long payloads cut (printable.hpp), or a JSON object on one
// line (JSON Lines) with the fields id, stream, version, name, created, data,
// meta and, with --pii, pii, always whole.
#include <string>

#include "act/stored_event.hpp"

namespace actctl {

struct EventLineStyle {
  bool json = false;
  bool colours = false;  // the line for people only
  bool pii = false;      // print pii (NULL, as act.query returns it to a role that may not read it, prints as null / -)
  bool full = false;     // the line for people: data and pii whole, not cut at kPayloadBytes
};

// created as to_jsonb renders a timestamptz in a UTC session (pg_text.hpp).
std::string EventLine(const act::StoredEvent& event, const EventLineStyle& style);

}  // namespace actctl
