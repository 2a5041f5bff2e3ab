#include "head_cache.hpp"

#include <cstring>
#include <string_view>
#include <vector>

extern "C" {
#include "common/hashfn.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
}

#include "shared_memory.hpp"

#include "arrays.hpp"
#include "relations.hpp"

namespace act::pg {
namespace {

constexpr uint32 kSlotCount = 16384;  // about 1 MiB

struct HeadKey {
  uint64 a = 0;
  uint64 b = 0;
  bool operator==(const HeadKey& other) const { return a == other.a && b == other.b; }
};

struct HeadSlot {
  slock_t mutex;
  bool valid;
  HeadKey key;
  int32 version;
  uint8 hash[32];
};

HeadSlot* g_slots = nullptr;
bool g_installed = false;
Size CacheSize() { return mul_size(kSlotCount, sizeof(HeadSlot)); }

void AttachCache(void* memory, bool found) {
  g_slots = static_cast<HeadSlot*>(memory);
  if (found) return;
  for (uint32 i = 0; i < kSlotCount; ++i) {
    SpinLockInit(&g_slots[i].mutex);
    g_slots[i].valid = false;
  }
}

// Database and table in the seed: a new database or a re-created extension never meets old entries.
HeadKey KeyOf(Datum stream) {
  const std::string_view name = VarlenaBytes(stream);
  const Oid events = Guard([] { return ActRelation("events"); });
  const uint64 seed = (static_cast<uint64>(MyDatabaseId) << 32) | events;
  const auto* bytes = reinterpret_cast<const unsigned char*>(name.data());
  const int length = static_cast<int>(name.size());
  HeadKey key;
  key.a = hash_bytes_extended(bytes, length, seed);
  key.b = hash_bytes_extended(bytes, length, seed ^ UINT64CONST(0x9e3779b97f4a7c15));
  return key;
}

HeadSlot& SlotOf(const HeadKey& key) { return g_slots[key.a % kSlotCount]; }

// Heads this transaction wrote, with the subtransaction level that wrote them.
struct WrittenHead {
  HeadKey key;
  int32 version;
  core::Hash hash;
  int level;
};
std::vector<WrittenHead> g_written;

// Runs once the commit is visible and before the locks are released.
void ShareWrittenHeads() {
  for (const WrittenHead& written : g_written) {
    HeadSlot& slot = SlotOf(written.key);
    SpinLockAcquire(&slot.mutex);
    slot.key = written.key;
    slot.version = written.version;
    memcpy(slot.hash, written.hash.data(), sizeof(slot.hash));
    slot.valid = true;
    SpinLockRelease(&slot.mutex);
  }
  g_written.clear();
}

void OnTransactionEvent(XactEvent event, void*) {
  switch (event) {
    case XACT_EVENT_COMMIT:
      ShareWrittenHeads();
      break;
    case XACT_EVENT_ABORT:
    case XACT_EVENT_PREPARE:  // refused before this when it committed events (horizon.cpp)
      g_written.clear();
      break;
    default:
      break;
  }
}

void OnSubtransactionEvent(SubXactEvent event, SubTransactionId, SubTransactionId, void*) {
  const int level = GetCurrentTransactionNestLevel();
  if (event == SUBXACT_EVENT_ABORT_SUB) {
    std::erase_if(g_written, [level](const WrittenHead& written) { return written.level >= level; });
  } else if (event == SUBXACT_EVENT_COMMIT_SUB) {
    for (WrittenHead& written : g_written)
      if (written.level >= level) written.level = level - 1;
  }
}

bool WrittenByThisTransaction(const HeadKey& key) {
  for (const WrittenHead& written : g_written)
    if (written.key == key) return true;
  return false;
}

}  // namespace

void InstallHeadCache() {
  g_installed = true;
  RegisterSharedArea({"pg_act stream heads", CacheSize, AttachCache});
  RegisterXactCallback(OnTransactionEvent, nullptr);
  RegisterSubXactCallback(OnSubtransactionEvent, nullptr);
}

std::optional<StreamHead> CachedHead(Datum stream) {
  if (!g_installed || IsolationUsesXactSnapshot()) return std::nullopt;
  const HeadKey key = KeyOf(stream);
  if (WrittenByThisTransaction(key)) return std::nullopt;
  HeadSlot& slot = SlotOf(key);
  std::optional<StreamHead> head;
  SpinLockAcquire(&slot.mutex);
  if (slot.valid && slot.key == key) {
    head.emplace();
    head->version = slot.version;
    memcpy(head->hash.data(), slot.hash, sizeof(slot.hash));
  }
  SpinLockRelease(&slot.mutex);
  return head;  // commits cannot close a stream: a cached head is open
}

void RememberWrittenHead(Datum stream, const StreamHead& head) {
  if (!g_installed) return;
  g_written.push_back(WrittenHead{KeyOf(stream), head.version, head.hash, GetCurrentTransactionNestLevel()});
}

void ForgetHead(Datum stream) {
  if (!g_installed) return;
  const HeadKey key = KeyOf(stream);
  // A head this transaction wrote before is gone too.
  std::erase_if(g_written, [&key](const WrittenHead& written) { return written.key == key; });
  HeadSlot& slot = SlotOf(key);
  SpinLockAcquire(&slot.mutex);
  if (slot.key == key) slot.valid = false;
  SpinLockRelease(&slot.mutex);
}

}  // namespace act::pg
