#pragma once
// The directory actctl log export writes (docs/verifiable-log.md, "Mirroring
// the log as tiles"): C2SP tlog-tiles files under one root. Each new file is
// staged under a temporary name beside its final one and renamed into place
// only by Publish, the checkpoint last, so a reader of the directory (a static
// file server) never sees half a file, nor a checkpoint whose tiles are not
// all there yet, and an export that fails its checks publishes nothing.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace actctl {

class TileDirectory {
 public:
  // The directory is created (with its parents) when missing.
  explicit TileDirectory(std::string root);
  // Removes the staged files Publish did not rename.
  ~TileDirectory();
  TileDirectory(const TileDirectory&) = delete;
  TileDirectory& operator=(const TileDirectory&) = delete;

  const std::string& root() const { return root_; }
  // Whether a file is at `path` (relative, "/"-separated) on disk now.
  bool Exists(const std::string& path) const;
  // The file's bytes as they will be after Publish: staged, else on disk;
  // nullopt when neither.
  std::optional<std::string> Current(const std::string& path) const;
  // Writes `bytes` to a temporary file beside `path`, making its directories.
  void Stage(const std::string& path, std::string_view bytes);
  std::size_t staged() const { return staged_.size(); }
  // Renames every staged file into place. The one at `last` goes after all
  // the others are on disk (one syncfs), so that after a crash it never names
  // files that were lost; then it is synced itself.
  void Publish(const std::string& last);

 private:
  std::string Absolute(const std::string& path) const { return root_ + "/" + path; }

  std::string root_;
  std::map<std::string, std::string> staged_;  // relative final path -> absolute temporary path
};

}  // namespace actctl
