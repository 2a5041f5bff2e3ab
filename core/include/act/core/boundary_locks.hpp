#pragma once
// The locks that make an append's condition check and its insert one atomic
// step (docs/dcb.md, "Guarantees"). Every writer takes a shared lock on the
// key of each name and each tag its events carry; an append with a condition
// takes an exclusive lock on keys that every matching event's writer must
// hold: the first tag of an item with tags, each type of an item without.
// Keys are taken in one sorted order, so lock waits never form a cycle.
#include <compare>
#include <cstdint>
#include <string_view>
#include <vector>

#include "act/core/boundary_query.hpp"

namespace act::core {

enum class BoundaryKind : std::uint8_t { kTag = 1, kType = 2 };

struct BoundaryLock {
  BoundaryKind kind = BoundaryKind::kTag;
  std::uint64_t key = 0;  // a hash of the tag or type: a collision only makes a lock wider
  bool exclusive = false;
  auto operator<=>(const BoundaryLock&) const = default;
};

BoundaryLock TagLock(std::string_view tag, bool exclusive);
BoundaryLock TypeLock(std::string_view type, bool exclusive);

// Builds the lock list of one call.
class BoundaryLockPlan {
 public:
  // A written event: its name and its tags.
  void AddEvent(std::string_view name, const std::vector<std::string_view>& tags);
  // A condition's query. Returns false when an item has neither types nor tags:
  // it matches every event, so no key covers it (the caller excludes every writer instead).
  bool AddCondition(const Query& query);
  // Sorted, one lock per key, exclusive where any request was.
  std::vector<BoundaryLock> Locks() const;

 private:
  std::vector<BoundaryLock> requests_;
};

}  // namespace act::core
