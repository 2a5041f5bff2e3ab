// App: the reaction side, handed to the reactor.
#include "act/app.hpp"
#include "app/app_core.hpp"
#include "db/transaction.hpp"

namespace act {

void app_detail::AppCore::transact(const std::function<void(Sql&)>& work) {
  ConnectionPool::Lease connection = store.pool().acquire();
  db::Transaction transaction(connection.session());
  Sql sql(connection.session());
  work(sql);
  transaction.commit();
}

CorrelateResult App::correlate() { return core_->reactor->correlate(); }
DrainResult App::drain() { return core_->reactor->drain(); }
SettleResult App::settle(const SettleOptions& options) { return core_->reactor->settle(options); }

SettleResult App::settle_or_throw(SettleOptions options) {
  options.throw_on_failure = true;
  return core_->reactor->settle(options);
}
void App::start(const WorkerOptions& options) { core_->reactor->start(options); }

void App::shutdown() {
  if (core_) core_->reactor->shutdown();
}

void App::shutdown(std::chrono::milliseconds grace) {
  if (core_) core_->reactor->shutdown(grace);
}

std::vector<Subscription> App::blocked_streams(const std::optional<std::string>& after, std::int32_t limit) {
  StreamFilter blocked;
  blocked.blocked = true;
  return core_->store.query_streams(blocked, after, limit);
}

std::int32_t App::unblock(const StreamFilter& streams) {
  const std::int32_t count = core_->store.unblock(streams);
  if (count > 0) core_->reactor->wake_all();
  return count;
}

std::int32_t App::reset(const StreamFilter& streams) {
  const std::int32_t count = core_->store.reset(streams);
  if (count > 0) core_->reactor->wake_all();
  return count;
}

std::int32_t App::prioritize(const StreamFilter& streams, std::int32_t priority) {
  return core_->store.prioritize(streams, priority);
}

RebuildProgress App::rebuild(const Projection& projection,
                             const std::function<void(const RebuildProgress&)>& on_progress) {
  return core_->reactor->rebuild(*projection.model(), on_progress);
}

void App::transact(const std::function<void(Sql&)>& work) { core_->transact(work); }

}  // namespace act
