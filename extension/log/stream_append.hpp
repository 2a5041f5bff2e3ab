#pragma once
// The insert path act.commit and act.append share: reading an events array,
// checking a stream's head, and appending a run of events to one stream with
// their hash chain and tags.
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "act/core/event_ref.hpp"
#include "error_bridge.hpp"
#include "stream_head.hpp"

namespace act::pg {

struct EventInput {
  std::string_view stream;  // act.append: the element's; act.commit: the call's
  std::string_view name;
  Jsonb* data = nullptr;  // never null: absent data is {}
  Jsonb* pii = nullptr;   // null when none
  std::vector<std::string_view> tags;
};

Jsonb* EmptyObject();

// meta.correlation is indexed: bounded up front (`stream` names the call in messages).
void ValidateCorrelation(std::string_view stream, Jsonb* meta);

// act.commit's events, all of `stream`.
std::vector<EventInput> ReadEvents(std::string_view stream, Jsonb* events);
// act.append's events, each naming its stream.
std::vector<EventInput> ReadStreamEvents(Jsonb* events);

// The head to append to, with the stream's lock held unless `checking_only`;
// a version conflict is counted as it is raised.
StreamHead CheckedHead(Datum stream_datum, std::string_view stream, std::optional<long long> expected,
                       bool checking_only);

// Appends the events (all of one stream) after head, which the caller read
// holding the stream's lock, and their tags; adds the rows to result and
// moves head past them.
std::vector<core::EventRef> AppendEvents(Datum stream_datum, std::string_view stream, StreamHead& head,
                                         std::span<const EventInput> events, Jsonb* meta, ReturnSetInfo* result);

// NOTIFY act_commit for events of one stream, when act.notify is on.
void Notify(std::string_view stream, const std::vector<core::EventRef>& refs);

}  // namespace act::pg
