#pragma once
// Who may change the store through the inspector. Without --write nothing
// may. With it, a request that changes something must carry this process's
// random token (which only a page served by this process can read: no CORS
// header lets another origin read /api/session) and come from this origin
// (Origin, else Referer, names the Host it was sent to), as JSON (a cross-origin
// form cannot send that content type without a preflight nobody answers).
// Every request must name a Host this server answers for, so that a page
// from another site cannot rebind its name to this address and read the token.
#include <optional>
#include <set>
#include <string>

namespace httplib {
struct Request;
}  // namespace httplib

namespace actctl::inspector {

inline constexpr const char* kTokenHeader = "X-Inspector-Token";

class WriteGuard {
 public:
  explicit WriteGuard(bool write);

  bool write() const noexcept { return write_; }
  // Empty without --write.
  const std::string& token() const noexcept { return token_; }

  // Known once the server is bound: the Host values it answers for.
  void bound(const std::string& host, int port);

  // Why a request may not be served at all (a Host not ours), or none.
  std::optional<std::string> host_refusal(const httplib::Request& request) const;
  // Why a state-changing request is refused (HTTP 403), or none.
  std::optional<std::string> write_refusal(const httplib::Request& request) const;

 private:
  bool write_;
  std::string token_;
  std::set<std::string> hosts_;
};

}  // namespace actctl::inspector
