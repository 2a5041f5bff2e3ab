#pragma once
// What actctl's HTTP servers (witness serve, serve) share: reading --listen
// and serving until SIGINT or SIGTERM.
#include <functional>
#include <string>
#include <utility>

namespace httplib {
class Server;
}  // namespace httplib

namespace actctl {

// --listen's HOST:PORT; anything else is a UsageError naming the value.
std::pair<std::string, int> HostPort(const std::string& listen);

// Binds (port 0: a free one), prints "listening on http://HOST:PORT" on
// stdout, flushed, for a caller that asked for port 0, and serves until a
// stop signal. Returns kOk when stopped, kFailed when serving failed; an
// address it cannot bind is a UsageError. on_bound, when given, learns the
// port before the first request is served.
int ServeUntilStopped(httplib::Server& server, const std::string& listen,
                      const std::function<void(int port)>& on_bound = {});

}  // namespace actctl
