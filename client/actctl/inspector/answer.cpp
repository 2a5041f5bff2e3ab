#include "inspector/answer.hpp"

#include <httplib.h>

#include "act/errors.hpp"
#include "inspector/request_params.hpp"
#include "table.hpp"

namespace actctl::inspector {

void SendJson(httplib::Response& response, int status, const nlohmann::json& body) {
  response.status = status;
  // Invalid UTF-8 in stored text is replaced, not a reason to fail the page.
  response.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
}

void Answer(httplib::Response& response, const std::function<nlohmann::json()>& body) {
  const auto fail = [&](int status, const std::string& message) {
    SendJson(response, status, {{"error", OneLine(message)}});
  };
  try {
    SendJson(response, 200, body());
  } catch (const BadRequest& e) {
    fail(400, e.what());
  } catch (const act::ValidationError& e) {
    fail(400, e.what());
  } catch (const act::ConnectionError& e) {
    fail(503, e.what());
  } catch (const act::StoreError& e) {
    fail(e.sqlstate() == "42501" ? 403 : 500, e.what());
  } catch (const std::exception& e) {
    fail(500, e.what());
  }
}

}  // namespace actctl::inspector
