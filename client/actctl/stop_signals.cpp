#include "stop_signals.hpp"

namespace actctl {

namespace {

volatile std::sig_atomic_t g_stop_requested = 0;

extern "C" void RequestStop(int) { g_stop_requested = 1; }

}  // namespace

// SA_RESTART: a write to stdout interrupted by the signal goes on. A wait in
// libpq is not shortened by the signal either (it polls again on EINTR): the
// command sees the request when its current statement returns, which is why
// it waits in short slices.
StopSignals::StopSignals() {
  g_stop_requested = 0;
  struct sigaction action {};
  action.sa_handler = RequestStop;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, &previous_int_);
  sigaction(SIGTERM, &action, &previous_term_);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

bool StopSignals::requested() const { return g_stop_requested != 0; }

}  // namespace actctl
