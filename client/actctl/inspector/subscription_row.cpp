#include "inspector/subscription_row.hpp"

#include "subscription_json.hpp"

namespace actctl::inspector {

nlohmann::json SubscriptionRow(const act::Subscription& row, std::chrono::system_clock::time_point now) {
  nlohmann::json json = SubscriptionJson(row);
  // The work mark is the highest event id with work for the row: the ids between it and the watermark wait.
  json["lag"] = row.correlated_at && *row.correlated_at > row.at ? nlohmann::json(*row.correlated_at - row.at)
                                                                 : nlohmann::json(0);
  json["lease_left_ms"] = nullptr;
  if (row.leased_until)
    json["lease_left_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(*row.leased_until - now).count();
  return json;
}

}  // namespace actctl::inspector
