// actctl serve: the web inspector (docs/inspector.md). Read-only unless
// --write; bound to 127.0.0.1 unless told otherwise.
#include <fmt/format.h>
#include <httplib.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "connection.hpp"
#include "http_listen.hpp"
#include "inspector/answer.hpp"
#include "inspector/inspector.hpp"

namespace actctl {

namespace {

using inspector::Inspector;
using inspector::ServeOptions;

// Requests in flight at once share these; a page makes a few calls per view.
constexpr std::size_t kConnections = 4;
// A body is an action: a thousand stream names and a few fields.
constexpr std::size_t kMaxBodyBytes = 1 << 20;

httplib::Headers SecurityHeaders() {
  return {{"Content-Security-Policy",
           "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
           "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"},
          {"X-Content-Type-Options", "nosniff"},
          {"Referrer-Policy", "same-origin"},
          {"Cache-Control", "no-store"}};
}

int Serve(const Database& db, const ServeOptions& options) {
  auto pool = std::make_shared<act::ConnectionPool>(
      db.dsn, act::PoolOptions{.max_connections = kConnections, .acquire_timeout = std::chrono::seconds(10)});
  Inspector inspector(pool, options);
  // A connection string that does not work, or neither pg_act nor a router, ends here with main's message.
  inspector.router = inspector.monitor.is_router();
  if (!inspector.router) inspector.monitor.status();
  httplib::Server server;
  server.set_default_headers(SecurityHeaders());
  server.set_payload_max_length(kMaxBodyBytes);
  server.set_pre_routing_handler([&inspector](const httplib::Request& request, httplib::Response& response) {
    std::optional<std::string> refusal = inspector.guard.host_refusal(request);
    // Anything but a read may change something: refused unless the guard allows it, whatever the path.
    if (!refusal && request.method != "GET" && request.method != "HEAD")
      refusal = inspector.guard.write_refusal(request);
    if (!refusal)
      return inspector::RefusedOnRouter(inspector, request.path, response)
                 ? httplib::Server::HandlerResponse::Handled
                 : httplib::Server::HandlerResponse::Unhandled;
    fmt::print(stderr, "inspector: refused {} {} from {}: {}\n", request.method, request.path, request.remote_addr,
               *refusal);
    inspector::SendJson(response, 403, {{"error", *refusal}});
    return httplib::Server::HandlerResponse::Handled;
  });
  inspector::AddPageRoutes(server);
  inspector::AddStatusRoutes(server, inspector);
  inspector::AddEventRoutes(server, inspector);
  inspector::AddWorkRoutes(server, inspector);
  inspector::AddActionRoutes(server, inspector);
  inspector::AddVerifyRoutes(server, inspector);
  inspector::AddPartitionRoutes(server, inspector);
  if (inspector.router) fmt::print(stderr, "inspector: a router of partitions: see /partitions\n");
  if (options.write)
    fmt::print(stderr, "inspector: actions enabled (--write); audit records on stderr{}\n",
               options.audit_stream.empty() ? "" : fmt::format(" and in stream \"{}\"", options.audit_stream));
  const std::string host = HostPort(options.listen).first;
  return ServeUntilStopped(server, options.listen, [&](int port) { inspector.guard.bound(host, port); });
}

}  // namespace

void AddServe(CLI::App& app, const Database& db, Chosen& chosen) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* serve = app.add_subcommand(
      "serve",
      "Serve the web inspector (docs/inspector.md): overview, log, streams, correlations, work and verification, "
      "a router's partitions, and /metrics. Prints the "
      "address it listens on, runs until SIGINT or SIGTERM. Exit 0 when stopped, 2 for unusable options or no "
      "connection");
  serve->add_option("--listen", options->listen, "the address to listen on; port 0 picks a free one")
      ->type_name("HOST:PORT")
      ->capture_default_str();
  serve->add_flag("--write", options->write,
                  "allow actions (unblock, reset, release, prioritize, defer), each after a dry run the operator "
                  "confirms; without it every request that would change something is refused (403)");
  serve
      ->add_option("--audit-stream", options->audit_stream,
                   "the stream each applied action is recorded in as an event (\"\": stderr only)")
      ->type_name("STREAM")
      ->capture_default_str();
  serve->callback([&chosen, &db, options] { chosen.run = [&db, options] { return Serve(db, *options); }; });
}

}  // namespace actctl
