#pragma once
// The app's side of react::AppPort: what one partition's core lends its
// reactor. Held by the core, beside the reactor it serves.
#include "react/app_port.hpp"

namespace act::app_detail {

struct AppCore;

class ReactorPort final : public react::AppPort {
 public:
  explicit ReactorPort(AppCore& core) noexcept : core_(core) {}

  Store& store() noexcept override;
  const Observers& observers() const noexcept override;
  cache::StateCache& cache() noexcept override;
  std::shared_ptr<const void> share() override;
  std::vector<SubscriptionSpec> hosted(const std::vector<SubscriptionSpec>& fixed) const override;
  ActionResult do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                         const DoOptions& options, const react::EventRef& cause) override;
  detail::AnySnapshot load(const detail::StateModel& state, std::string_view stream,
                           const LoadOptions& options) override;
  detail::AnySnapshot load_for(const detail::StateModel& state, std::string_view stream, const Actor& reader) override;
  Timestamp now() const override;
  const std::optional<AutocloseWindow>& autoclose_window() const noexcept override;
  CloseResult close(const std::vector<CloseTarget>& targets) override;

 private:
  AppCore& core_;
};

}  // namespace act::app_detail
