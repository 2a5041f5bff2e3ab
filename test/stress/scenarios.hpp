#pragma once
// The stress scenarios; each checks its invariants at the end, prints one
// summary line and returns the exit status (non-zero on any violation).
#include "report.hpp"

namespace stress {

int CommitStorm(const Options& options);
int SameStream(const Options& options);
int DrainUnderChurn(const Options& options);
int KilledWorker(const Options& options);
int ServerCrash(const Options& options);

}  // namespace stress
