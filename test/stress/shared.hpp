#pragma once
// Memory shared with forked children: counters a child adds to, flags the
// parent raises. Fields are longs updated atomically, so a child killed at
// any moment leaves every finished update visible.
#include <sys/mman.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <system_error>
#include <type_traits>

namespace stress {

template <class T>
class Shared {
  static_assert(std::is_trivial_v<T>, "shared records are plain counters");

 public:
  explicit Shared(std::size_t count = 1) : count_(count) {
    void* memory = mmap(nullptr, sizeof(T) * count, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap");
    items_ = static_cast<T*>(memory);  // zero-filled by the kernel
  }
  Shared(const Shared&) = delete;
  Shared& operator=(const Shared&) = delete;
  ~Shared() { munmap(items_, sizeof(T) * count_); }

  T& operator[](std::size_t index) { return items_[index]; }
  std::size_t size() const { return count_; }
  T* begin() { return items_; }
  T* end() { return items_ + count_; }

 private:
  T* items_ = nullptr;
  std::size_t count_;
};

inline void Add(long& field, long amount) { std::atomic_ref<long>(field).fetch_add(amount); }
inline void Set(long& field, long value) { std::atomic_ref<long>(field).store(value); }
inline long Get(long& field) { return std::atomic_ref<long>(field).load(); }

}  // namespace stress
