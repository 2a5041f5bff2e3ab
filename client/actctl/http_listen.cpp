#include "http_listen.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "command.hpp"
#include "stop_signals.hpp"

namespace actctl {

std::pair<std::string, int> HostPort(const std::string& listen) {
  const std::size_t colon = listen.rfind(':');
  const auto fail = [&] { return UsageError(fmt::format("--listen \"{}\" is not HOST:PORT", listen)); };
  if (colon == std::string::npos || colon == 0) throw fail();
  const std::string digits = listen.substr(colon + 1);
  if (digits.empty() || digits.size() > 5 || digits.find_first_not_of("0123456789") != std::string::npos) throw fail();
  const int port = std::stoi(digits);
  if (port > 65535) throw fail();
  return {listen.substr(0, colon), port};
}

int ServeUntilStopped(httplib::Server& server, const std::string& listen,
                      const std::function<void(int port)>& on_bound) {
  const auto [host, port] = HostPort(listen);
  const int bound = port == 0 ? server.bind_to_any_port(host) : (server.bind_to_port(host, port) ? port : -1);
  if (bound < 0) throw UsageError(fmt::format("--listen: cannot listen on {}", listen));
  if (on_bound) on_bound(bound);
  fmt::print("listening on http://{}:{}\n", host, bound);
  std::fflush(stdout);
  // httplib's stop is not async-signal-safe: a thread watches for the signal.
  const StopSignals signals;
  std::atomic<bool> done = false;
  // Stopped again until it has: a stop before the server runs would be lost.
  std::thread watcher([&] {
    while (!done) {
      if (signals.requested()) server.stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  const bool served = server.listen_after_bind();
  done = true;
  watcher.join();
  return served || signals.requested() ? kOk : kFailed;
}

}  // namespace actctl
