#include "act/core/boundary_locks.hpp"

#include <algorithm>

namespace act::core {
namespace {

// FNV-1a, 64 bits: stable across builds and machines, so every backend of
// every version takes the same key for the same tag.
std::uint64_t KeyOf(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace

BoundaryLock TagLock(std::string_view tag, bool exclusive) {
  return BoundaryLock{BoundaryKind::kTag, KeyOf(tag), exclusive};
}

BoundaryLock TypeLock(std::string_view type, bool exclusive) {
  return BoundaryLock{BoundaryKind::kType, KeyOf(type), exclusive};
}

void BoundaryLockPlan::AddEvent(std::string_view name, const std::vector<std::string_view>& tags) {
  requests_.push_back(TypeLock(name, false));
  for (const std::string_view tag : tags) requests_.push_back(TagLock(tag, false));
}

bool BoundaryLockPlan::AddCondition(const Query& query) {
  for (const QueryItem& item : query.items) {
    if (!item.tags.empty()) {
      // A matching event carries every tag of the item, this one among them.
      requests_.push_back(TagLock(item.tags.front(), true));
    } else if (!item.types.empty()) {
      for (const std::string& type : item.types) requests_.push_back(TypeLock(type, true));
    } else {
      return false;
    }
  }
  return true;
}

std::vector<BoundaryLock> BoundaryLockPlan::Locks() const {
  std::vector<BoundaryLock> locks = requests_;
  // Exclusive sorts after shared for the same key: keep the last of each key.
  std::sort(locks.begin(), locks.end());
  std::vector<BoundaryLock> merged;
  for (const BoundaryLock& lock : locks) {
    if (!merged.empty() && merged.back().kind == lock.kind && merged.back().key == lock.key)
      merged.back().exclusive = merged.back().exclusive || lock.exclusive;
    else
      merged.push_back(lock);
  }
  return merged;
}

}  // namespace act::core
