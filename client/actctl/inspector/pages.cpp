// The page shell for every view's URL, and the assets it loads. The shell
// is one HTML file: its script reads the path and the query string and
// renders the view, so a view's URL with its filters is the whole state.
#include <httplib.h>

#include <string>

#include "inspector/assets.hpp"
#include "inspector/inspector.hpp"

namespace actctl::inspector {

namespace {

void Send(httplib::Response& response, const Asset& asset) {
  response.set_content(std::string(asset.body), std::string(asset.content_type).c_str());
}

}  // namespace

void AddPageRoutes(httplib::Server& server) {
  const auto shell = [](const httplib::Request&, httplib::Response& response) {
    Send(response, *FindAsset("index.html"));
  };
  for (const char* view : {"/", "/log", "/work", "/verify", "/partitions", R"(/streams/.+)", R"(/correlation/.+)"})
    server.Get(view, shell);
  server.Get(R"(/assets/([A-Za-z0-9_.-]+))", [](const httplib::Request& request, httplib::Response& response) {
    const Asset* asset = FindAsset(request.matches[1].str());
    if (!asset) {
      response.status = 404;
      response.set_content("no such asset\n", "text/plain; charset=utf-8");
      return;
    }
    Send(response, *asset);
  });
}

}  // namespace actctl::inspector
