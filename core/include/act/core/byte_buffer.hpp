#pragma once
// A growable byte buffer meant to be reused: clearing keeps the storage, and
// a writer reserves room once and then stores through a plain pointer
// (std::string would check capacity on every character, or zero-fill on
// resize). The hash preimages of act.verify are written into one of these.
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>

namespace act::core {

class ByteBuffer {
 public:
  void Clear() noexcept { size_ = 0; }
  std::size_t size() const noexcept { return size_; }
  char* data() noexcept { return storage_.get(); }
  std::string_view view() const noexcept { return {storage_.get(), size_}; }

  // Room for `count` more bytes; returns where they go. Write them, then
  // Commit the end of what was written (at most `count` bytes further).
  char* Reserve(std::size_t count) {
    if (count > capacity_ - size_) Grow(count);
    return storage_.get() + size_;
  }
  void Commit(const char* end) noexcept { size_ = static_cast<std::size_t>(end - storage_.get()); }
  // How many bytes can be written after the end without growing (at least
  // what the last Reserve asked for).
  std::size_t room() const noexcept { return capacity_ - size_; }

  void Append(const void* bytes, std::size_t count) {
    char* at = Reserve(count);
    if (count > 0) memcpy(at, bytes, count);
    size_ += count;
  }
  void Append(std::string_view bytes) { Append(bytes.data(), bytes.size()); }
  void Push(char byte) {
    *Reserve(1) = byte;
    ++size_;
  }

 private:
  void Grow(std::size_t count) {
    std::size_t capacity = capacity_ < 256 ? 256 : capacity_ * 2;
    while (capacity - size_ < count) capacity *= 2;
    std::unique_ptr<char[]> grown(new char[capacity]);
    if (size_ > 0) memcpy(grown.get(), storage_.get(), size_);
    storage_ = std::move(grown);
    capacity_ = capacity;
  }

  std::unique_ptr<char[]> storage_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace act::core
