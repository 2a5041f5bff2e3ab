#pragma once
// What every route of `actctl serve` shares: the store it reads through
// the client library, the options it was started with and the write guard.
#include <memory>
#include <string>

#include "act/log_store.hpp"
#include "act/monitor.hpp"
#include "act/pool.hpp"
#include "act/store.hpp"
#include "inspector/action_audit.hpp"
#include "inspector/write_guard.hpp"

namespace httplib {
class Server;
struct Response;
}  // namespace httplib

namespace actctl::inspector {

struct ServeOptions {
  std::string listen = "127.0.0.1:8080";
  bool write = false;
  std::string audit_stream = "actctl-audit";  // "": audit lines on stderr only
};

struct Inspector {
  Inspector(std::shared_ptr<act::ConnectionPool> pool, const ServeOptions& options)
      : store(pool), monitor(pool), log(pool), guard(options.write), audit(store, options.audit_stream) {}

  act::Store store;
  act::Monitor monitor;
  act::LogStore log;
  WriteGuard guard;
  ActionAudit audit;
  bool router = false;  // a router of partitions (Monitor::is_router), learnt at start
};

// Each adds its routes to the server (one file each).
void AddPageRoutes(httplib::Server& server);                          // pages.cpp: the page shell and its assets
void AddStatusRoutes(httplib::Server& server, Inspector& inspector);  // status_routes.cpp: session, status, /metrics
void AddEventRoutes(httplib::Server& server, Inspector& inspector);   // event_routes.cpp: log, stream, correlation
void AddWorkRoutes(httplib::Server& server, Inspector& inspector);    // work_routes.cpp: subscription rows
void AddActionRoutes(httplib::Server& server, Inspector& inspector);  // action_routes.cpp: dry runs and actions
void AddVerifyRoutes(httplib::Server& server, Inspector& inspector);  // verify_routes.cpp: checkpoints, act.verify_log
void AddPartitionRoutes(httplib::Server& server, Inspector& inspector);  // partition_routes.cpp: a router's partitions

// On a router, a read that needs pg_act's own functions is refused (409,
// naming /partitions): true when `response` holds that refusal.
bool RefusedOnRouter(const Inspector& inspector, const std::string& path, httplib::Response& response);

}  // namespace actctl::inspector
