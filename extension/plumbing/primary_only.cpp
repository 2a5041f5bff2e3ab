#include "primary_only.hpp"

#include <string>

#include "act/core/errors.hpp"

extern "C" {
#include "access/xlog.h"
}

namespace act::pg {

void RequirePrimary(const char* what) {
  if (!Guard([] { return RecoveryInProgress(); })) return;
  throw core::SqlError(core::sqlstate::kReadOnlySqlTransaction,
                       std::string(what) + " writes, and this server is a standby (in recovery): call it on the primary");
}

}  // namespace act::pg
