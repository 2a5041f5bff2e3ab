#pragma once
// SIGINT and SIGTERM, while an object of StopSignals lives, ask a command that
// runs until stopped (tail --follow) to stop at its next check, so that it
// ends between lines with exit 0 instead of dying in the middle of one.
#include <csignal>

namespace actctl {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  bool requested() const;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

}  // namespace actctl
