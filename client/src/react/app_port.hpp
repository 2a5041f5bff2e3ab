#pragma once
// What the reaction side needs of the app it serves, and nothing more: the
// store of its partition, its listeners, its cache (the waker drops the
// stale states commit notices name), and its action side, which handlers
// reach through ReactionContext (an action, a load, on the partition that
// owns the stream) and the library's own reactions through close (autoclose).
// The app implements it (app/reactor_port.hpp); react/ sees nothing else of it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/app.hpp"
#include "act/autoclose.hpp"
#include "act/close.hpp"
#include "act/detail/state_model.hpp"
#include "act/store.hpp"
#include "act/subscriptions.hpp"

namespace act::app_detail {
class Observers;
}
namespace act::cache {
class StateCache;
}

namespace act::react {

// The event an action runs in reaction to.
struct EventRef {
  std::int64_t id = 0;
  std::string name;
  std::string stream;
};

class AppPort {
 public:
  virtual ~AppPort() = default;

  virtual Store& store() noexcept = 0;
  virtual const app_detail::Observers& observers() const noexcept = 0;
  virtual cache::StateCache& cache() noexcept = 0;
  // A share of the app that a worker thread holds while it runs, so that a
  // thread shutdown(grace) let go finds everything it uses still there.
  virtual std::shared_ptr<const void> share() = 0;
  // The fixed subscriptions this partition's database takes (all of them on
  // a single database): a row whose literal source is another partition's is that partition's.
  virtual std::vector<SubscriptionSpec> hosted(const std::vector<SubscriptionSpec>& fixed) const = 0;

  // A handler's action and loads, on the partition that owns the stream.
  virtual ActionResult do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                                 const DoOptions& options, const EventRef& cause) = 0;
  virtual detail::AnySnapshot load(const detail::StateModel& state, std::string_view stream,
                                   const LoadOptions& options) = 0;
  virtual detail::AnySnapshot load_for(const detail::StateModel& state, std::string_view stream,
                                       const Actor& reader) = 0;

  // For autoclose: the time its policies are judged by, the hours it may
  // close in, and the close itself (App::close on this partition).
  virtual Timestamp now() const = 0;
  virtual const std::optional<AutocloseWindow>& autoclose_window() const noexcept = 0;
  virtual CloseResult close(const std::vector<CloseTarget>& targets) = 0;
};

}  // namespace act::react
