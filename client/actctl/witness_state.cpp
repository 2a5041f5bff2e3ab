#include "witness_state.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "act/core/checkpoint.hpp"
#include "act/core/errors.hpp"
#include "act/core/signed_note.hpp"
#include "command.hpp"

namespace actctl {

namespace {

namespace core = act::core;

constexpr std::size_t kMaxStateBytes = 1 << 20;

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

[[noreturn]] void Fail(const std::string& what, const std::string& path) {
  throw std::runtime_error(fmt::format("cannot {} \"{}\": {}", what, path, std::strerror(errno)));
}

void WriteAll(int fd, const std::string& text, const std::string& path) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t wrote = write(fd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) Fail("write", path);
    done += static_cast<std::size_t>(wrote);
  }
}

}  // namespace

WitnessState::WitnessState(std::string directory) : directory_(std::move(directory)) {
  if (directory_.empty()) throw UsageError("--state: the directory is empty");
  if (mkdir(directory_.c_str(), 0700) != 0 && errno != EEXIST)
    throw UsageError(fmt::format("--state: cannot create \"{}\": {}", directory_, std::strerror(errno)));
  struct stat status {};
  if (stat(directory_.c_str(), &status) != 0 || !S_ISDIR(status.st_mode))
    throw UsageError(fmt::format("--state: \"{}\" is not a directory", directory_));
}

std::string WitnessState::OriginHash(const std::string& origin) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(origin.data(), origin.size(), digest, &length, EVP_sha256(), nullptr) != 1 || length != 32)
    throw std::runtime_error("OpenSSL SHA-256 failed");
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

std::string WitnessState::PathOf(const std::string& origin) const { return directory_ + "/" + OriginHash(origin); }

std::optional<core::WitnessedCheckpoint> WitnessState::Load(const std::string& origin) const {
  const std::string path = PathOf(origin);
  const Descriptor file(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) {
    if (errno == ENOENT) return std::nullopt;
    Fail("open", path);
  }
  std::string note;
  char buffer[4096];
  for (;;) {
    const ssize_t got = read(file.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) Fail("read", path);
    if (got == 0) break;
    note.append(buffer, static_cast<std::size_t>(got));
    if (note.size() > kMaxStateBytes) throw std::runtime_error(fmt::format("\"{}\" is too large", path));
  }
  try {
    core::Checkpoint checkpoint = core::ParseCheckpoint(core::ParseSignedNote(note).text);
    if (checkpoint.origin != origin)
      throw core::ValidationError(fmt::format("it is for origin \"{}\"", checkpoint.origin));
    return core::WitnessedCheckpoint{std::move(checkpoint), std::move(note)};
  } catch (const core::ValidationError& e) {
    throw std::runtime_error(fmt::format("the state of log \"{}\" in \"{}\" is damaged: {}", origin, path, e.what()));
  }
}

void WitnessState::Store(const std::string& origin, const core::WitnessedCheckpoint& checkpoint) const {
  const std::string path = PathOf(origin);
  const std::string temporary = path + ".tmp";
  {
    const Descriptor file(open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (file.get() < 0) Fail("create", temporary);
    WriteAll(file.get(), checkpoint.note, temporary);
    if (fsync(file.get()) != 0) Fail("fsync", temporary);
  }
  if (rename(temporary.c_str(), path.c_str()) != 0) Fail("rename", temporary);
  // The rename is durable only once the directory entry is.
  const Descriptor directory(open(directory_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (directory.get() < 0) Fail("open", directory_);
  if (fsync(directory.get()) != 0) Fail("fsync", directory_);
}

}  // namespace actctl
