#pragma once
// One event as tail prints it: a line for people, control characters
// escaped and long payloads cut (printable.hpp), or a JSON object on one
// line (JSON Lines) with the fields id, stream, version, name, created, data,
// meta and, with --pii, pii, always whole.
#include <pqxx/pqxx>
#include <string>

namespace actctl {

struct EventLineStyle {
  bool json = false;
  bool colours = false;  // the line for people only
  bool pii = false;      // print pii (NULL, as act.query returns it to a role that may not read it, prints as null / -)
  bool full = false;     // the line for people: data and pii whole, not cut at kPayloadBytes
};

// The select list that EventLine reads, over an act.query result aliased e.
inline constexpr const char* kEventLineColumns =
    "e.id, e.stream, e.version, e.name, to_json(e.created) #>> '{}' AS created, e.data::text AS data, "
    "e.meta::text AS meta, e.pii::text AS pii";

std::string EventLine(const pqxx::row& event, const EventLineStyle& style);

}  // namespace actctl
