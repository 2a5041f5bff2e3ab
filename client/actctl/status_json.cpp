#include "status_json.hpp"

#include "pg_text.hpp"

namespace actctl {

std::vector<std::pair<std::string, nlohmann::json>> StatusFields(const act::StoreStatus& status) {
  return {{"mode", status.mode},
          {"horizon", status.horizon},
          {"max_event_id", status.max_event_id},
          {"sealed_size", Json(status.sealed_size)},
          {"subscriptions", status.subscriptions},
          {"with_work", status.with_work},
          {"blocked", status.blocked},
          {"leased", status.leased},
          {"expired_leases", status.expired_leases},
          {"oldest_work_age", Json(status.oldest_work_age)},
          {"horizon_held_for", Json(status.horizon_held_for)},
          {"seal_stopped", Json(status.seal_stopped)}};
}

}  // namespace actctl
