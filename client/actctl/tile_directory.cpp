#include "tile_directory.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace actctl {

namespace {

[[noreturn]] void Fail(const char* doing, const std::string& path) {
  throw std::runtime_error(fmt::format("cannot {} \"{}\": {}", doing, path, std::strerror(errno)));
}

// A file descriptor closed on every path out.
class Fd {
 public:
  Fd(const std::string& path, int flags, mode_t mode = 0) : fd_(open(path.c_str(), flags | O_CLOEXEC, mode)) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  // Closes now, reporting the error a deferred write may only show here.
  bool Close() { return close(std::exchange(fd_, -1)) == 0; }

 private:
  int fd_;
};

void SyncDirectory(const std::string& path) {
  const Fd dir(path, O_RDONLY | O_DIRECTORY);
  if (dir.get() < 0 || fsync(dir.get()) != 0) Fail("sync", path);
}

}  // namespace

TileDirectory::TileDirectory(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  std::error_code error;
  std::filesystem::create_directories(root_, error);
  if (error) throw std::runtime_error(fmt::format("cannot create \"{}\": {}", root_, error.message()));
}

TileDirectory::~TileDirectory() {
  for (const auto& [path, temporary] : staged_) unlink(temporary.c_str());
}

bool TileDirectory::Exists(const std::string& path) const {
  struct stat status {};
  return stat(Absolute(path).c_str(), &status) == 0 && S_ISREG(status.st_mode);
}

std::optional<std::string> TileDirectory::Current(const std::string& path) const {
  const auto staged = staged_.find(path);
  const std::string file = staged != staged_.end() ? staged->second : Absolute(path);
  if (staged == staged_.end() && !Exists(path)) return std::nullopt;
  const Fd fd(file, O_RDONLY);
  if (fd.get() < 0) Fail("open", file);
  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) Fail("read", file);
    if (n == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  return bytes;
}

void TileDirectory::Stage(const std::string& path, std::string_view bytes) {
  const std::string final_path = Absolute(path);
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(final_path).parent_path(), error);
  if (error)
    throw std::runtime_error(fmt::format("cannot create the directory of \"{}\": {}", final_path, error.message()));
  // Beside the final name, so the rename stays inside one file system; the
  // pid keeps two exporters' temporaries apart.
  const std::string temporary = fmt::format("{}.tmp-{}", final_path, getpid());
  Fd fd(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd.get() < 0) Fail("create", temporary);
  staged_.insert_or_assign(path, temporary);  // from here the destructor removes it
  for (std::size_t written = 0; written < bytes.size();) {
    const ssize_t n = write(fd.get(), bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) Fail("write", temporary);
    written += static_cast<std::size_t>(n);
  }
  if (!fd.Close()) Fail("close", temporary);
}

void TileDirectory::Publish(const std::string& last) {
  const auto renamed = [this](const std::string& path, const std::string& temporary) {
    if (rename(temporary.c_str(), Absolute(path).c_str()) != 0) Fail("rename", temporary);
  };
  for (auto it = staged_.begin(); it != staged_.end();) {
    if (it->first == last) {
      ++it;
      continue;
    }
    renamed(it->first, it->second);
    it = staged_.erase(it);
  }
  const auto checkpoint = staged_.find(last);
  if (checkpoint == staged_.end()) return;
  // One syncfs instead of an fsync per tile: thousands of files per export.
  const Fd dir(root_, O_RDONLY | O_DIRECTORY);
  if (dir.get() < 0 || syncfs(dir.get()) != 0) Fail("sync", root_);
  renamed(checkpoint->first, checkpoint->second);
  staged_.erase(checkpoint);
  SyncDirectory(std::filesystem::path(Absolute(last)).parent_path().string());
}

}  // namespace actctl
