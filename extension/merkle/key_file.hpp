#pragma once
// The PEM text of act.checkpoint_key_file, read so that a path naming
// anything but a regular file (a FIFO, a device, a directory) is refused at
// once instead of blocking the backend where statement_timeout cannot reach.
#include <string>

namespace act::pg {

// ValidationError (22023) naming the file when it cannot be opened, is not
// a regular file or is larger than a key can be; cancellable between reads.
std::string ReadKeyFile(const std::string& path);

}  // namespace act::pg
