#pragma once
// How a route answers: JSON, and an error as {"error": message} with the
// status that says whose fault it is (400 a bad parameter or a value the
// server refused, 403 a role without the grant, 503 no database, 500 the rest).
#include <functional>
#include <nlohmann/json.hpp>

namespace httplib {
struct Response;
}  // namespace httplib

namespace actctl::inspector {

void SendJson(httplib::Response& response, int status, const nlohmann::json& body);

// Runs `body` and sends what it returns with status 200, or the error it threw.
void Answer(httplib::Response& response, const std::function<nlohmann::json()>& body);

}  // namespace actctl::inspector
