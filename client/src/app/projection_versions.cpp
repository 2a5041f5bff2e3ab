// App: projection versions over the partition set, one partition after another.
#include "act/app.hpp"
#include "app/app_core.hpp"

namespace act {

ProjectionLag App::projection_lag(const Projection& version) {
  ProjectionLag total;
  total.name = version.name();
  total.version = version.version();
  total.current = true;
  on_every_partition(partitions(), [&](std::int32_t p) {
    const ProjectionLag lag = cores_[static_cast<std::size_t>(p)]->reactor->lag(*version.model());
    total.at += lag.at;
    total.live += lag.live;
    total.events += lag.events;
    total.current = total.current && lag.current;
  });
  return total;
}

SwitchResult App::switch_projection(const Projection& version, const SwitchOptions& options) {
  SwitchResult total;
  total.to = version.version();
  total.switched = true;
  on_every_partition(partitions(), [&](std::int32_t p) {
    const SwitchResult switched = cores_[static_cast<std::size_t>(p)]->reactor->switch_to(*version.model(), options);
    total.from = switched.from;
    total.lag += switched.lag;
    total.side_effects_run += switched.side_effects_run;
    total.switched = total.switched && switched.switched;
  });
  return total;
}

std::int32_t App::current_projection_version(std::string_view name) {
  return cores_.front()->reactor->current_version(std::string(name)).value_or(1);
}

void App::drop_projection_version(std::string_view name, std::int32_t version) {
  on_every_partition(partitions(), [&](std::int32_t p) {
    cores_[static_cast<std::size_t>(p)]->reactor->drop_version(std::string(name), version);
  });
}

}  // namespace act
