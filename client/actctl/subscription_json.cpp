#include "subscription_json.hpp"

#include "pg_text.hpp"

namespace actctl {

nlohmann::json SubscriptionJson(const act::Subscription& row) {
  return {{"stream", row.stream},
          {"source", Json(row.source)},
          {"names", Json(row.names)},
          {"at", row.at},
          {"retry", row.retry},
          {"blocked", row.blocked},
          {"error", Json(row.error)},
          {"leased_by", Json(row.leased_by)},
          {"leased_until", Json(row.leased_until)},
          {"priority", row.priority},
          {"lane", row.lane},
          {"deferred_at", Json(row.deferred_at)},
          {"correlated_at", Json(row.correlated_at)}};
}

}  // namespace actctl
