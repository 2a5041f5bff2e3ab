// act.checkpoint_key_file, read without ever blocking: the file is opened
// with O_NONBLOCK (opening a FIFO for reading otherwise waits for a writer,
// in a system call that Postgres's timeout signal restarts, so a FIFO hung
// act.checkpoint() beyond statement_timeout), checked with fstat on the
// descriptor it opened (no race with a rename between a stat and the open),
// and read in chunks with an interrupt check between them.
#include "key_file.hpp"

#include "pg.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "act/core/errors.hpp"
#include "act/core/text.hpp"
#include "error_bridge.hpp"

namespace act::pg {

namespace {

constexpr off_t kMaxKeyFileBytes = 1 << 16;  // an Ed25519 PEM is 119 bytes

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

const char* FileKind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::string ReadKeyFile(const std::string& path) {
  const std::string what = "key file " + core::Quoted(path) + " (act.checkpoint_key_file)";
  const Descriptor file(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (file.get() < 0) throw core::ValidationError("cannot open " + what + ": " + strerror(errno));
  struct stat status {};
  if (fstat(file.get(), &status) != 0) throw core::ValidationError("cannot stat " + what + ": " + strerror(errno));
  if (!S_ISREG(status.st_mode))
    throw core::ValidationError(what + " is " + FileKind(status.st_mode) + ", not a regular file");
  if (status.st_size > kMaxKeyFileBytes)
    throw core::ValidationError(what + " is larger than " + std::to_string(kMaxKeyFileBytes) + " bytes: not a key");
  std::string pem;
  char buffer[4096];
  for (;;) {
    Guard([] { CHECK_FOR_INTERRUPTS(); });
    const ssize_t got = read(file.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw core::ValidationError("cannot read " + what + ": " + strerror(errno));
    if (got == 0) break;
    pem.append(buffer, static_cast<std::size_t>(got));
    // The file may grow after fstat: the bound holds for what is read.
    if (pem.size() > static_cast<std::size_t>(kMaxKeyFileBytes))
      throw core::ValidationError(what + " is larger than " + std::to_string(kMaxKeyFileBytes) + " bytes: not a key");
  }
  return pem;
}

}  // namespace act::pg
