#pragma once
// How the partitions' cores of one App reach each other. Each core gets a
// route once every core is built: a reaction's action or load for a stream
// of another partition runs on that partition's core, on its database.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "act/subscriptions.hpp"

namespace act::app_detail {

struct AppCore;

class PartitionRoute {
 public:
  // Weak, so that the cores never keep each other alive. Index = partition.
  using Cores = std::vector<std::weak_ptr<AppCore>>;

  PartitionRoute(std::int32_t partition, std::shared_ptr<const Cores> cores)
      : partition_(partition), cores_(std::move(cores)) {}

  std::int32_t partition() const noexcept { return partition_; }
  std::int32_t partitions() const noexcept { return static_cast<std::int32_t>(cores_->size()); }
  std::int32_t partition_of(std::string_view stream) const;
  // Partition p's core. Throws act::Error when it is gone (a worker that
  // shutdown(grace) let go outlived its App).
  std::shared_ptr<AppCore> core(std::int32_t partition) const;
  // The fixed subscriptions this partition's database takes: a literal
  // source of another partition would be refused there (22023), and its
  // row lives in the source's partition.
  std::vector<SubscriptionSpec> hosted(const std::vector<SubscriptionSpec>& specs) const;

 private:
  std::int32_t partition_;
  std::shared_ptr<const Cores> cores_;
};

}  // namespace act::app_detail
