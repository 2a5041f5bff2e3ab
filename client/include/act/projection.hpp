#pragma once
// Projections: read models in the application's own tables, fed in event
// order. A projection's writes and the acknowledgement of the events they
// applied commit in one transaction, so a crash can neither lose an event
// nor apply one twice.
//
//   auto open_tickets = act::projection("open-tickets")
//       .setup([](act::Sql& sql) { sql.exec("CREATE TABLE IF NOT EXISTS open_tickets (...)"); })
//       .truncate([](act::Sql& sql) { sql.exec("TRUNCATE open_tickets"); })
//       .on<Assigned>("Assigned", [](const Assigned& e, const act::Committed& event, act::Sql& sql) {...})
//       .on<Closed>("Closed", [](const Closed& e, const act::Committed& event, act::Sql& sql) {...})
//       .build();
//   auto app = act::app(pool).with(tickets).with(open_tickets).build();
//
// .run_inline() makes it an inline projection: the app's own actions apply
// it in the transaction of their commit, so its read model never lags
// (docs/reactions.md, "Inline projections").
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "act/detail/payload.hpp"
#include "act/detail/reaction_model.hpp"
#include "act/event_name.hpp"
#include "act/projection_version.hpp"

namespace act {

class Projection {
 public:
  explicit Projection(std::shared_ptr<const detail::ProjectionModel> model) : model_(std::move(model)) {}
  // Its version's subscription (projection_version_target).
  const std::string& target() const noexcept { return model_->route.target; }
  const std::string& name() const noexcept { return model_->name; }
  std::int32_t version() const noexcept { return model_->version; }
  // Where this version builds: empty for version 1 (its setup's own tables).
  const std::string& schema() const noexcept { return model_->schema; }
  // Where the application reads whichever version is current (App::switch_projection).
  std::string reads_through() const { return projection_reading_schema(model_->name); }
  const std::shared_ptr<const detail::ProjectionModel>& model() const noexcept { return model_; }

 private:
  std::shared_ptr<const detail::ProjectionModel> model_;
};

class ProjectionBuilder {
 public:
  explicit ProjectionBuilder(std::string target) : model_(std::make_shared<detail::ProjectionModel>()) {
    if (target.empty()) throw std::invalid_argument("projection(): the target must not be empty");
    model_->name = target;
    model_->route.target = std::move(target);
    model_->options.max_retries = 3;
  }

  // Read only these streams' events (a name or a regex); default: every stream.
  ProjectionBuilder source(std::string source) && {
    model_->route.source = std::move(source);
    return std::move(*this);
  }
  ProjectionBuilder lane(std::string lane) && {
    model_->route.lane = std::move(lane);
    return std::move(*this);
  }
  // The projection's target name in the app's earlier version: it goes on
  // from that row's watermark (see ReactionBuilder::renamed_from).
  ProjectionBuilder renamed_from(std::string former) && {
    if (former.empty()) throw std::invalid_argument("renamed_from(): the former name must not be empty");
    model_->route.renamed_from = std::move(former);
    return std::move(*this);
  }
  ProjectionBuilder priority(std::int32_t priority) && {
    model_->route.priority = priority;
    return std::move(*this);
  }
  // Handlers get the personal data of their events (see
  // ReactionBuilder::discloses_pii); without this it is removed. A read
  // model holding it is not wiped by App::forget.
  ProjectionBuilder discloses_pii() && {
    model_->discloses_pii = true;
    return std::move(*this);
  }
  ProjectionBuilder options(ReactionOptions options) && {
    model_->options = std::move(options);
    options_set_ = true;
    return std::move(*this);
  }

  // A later version (docs/reactions.md, "A new projection version"): its
  // own subscription, so it replays the log from the start beside the
  // current version, and its own schema (Projection::schema()): its setup,
  // truncate and handlers run with only that schema on the search_path, so
  // an unqualified table name is this version's, never the current one's.
  // No version() is version 1, which builds where its setup says.
  ProjectionBuilder version(std::int32_t version) && {
    if (version < 1) throw std::invalid_argument("projection " + model_->name + ": version must be 1 or more");
    model_->version = version;
    model_->route.target = projection_version_target(model_->name, version);
    model_->schema = version == 1 ? std::string() : projection_version_schema(model_->name, version);
    return std::move(*this);
  }

  // effect(const E&, ReactionContext&): what handling event_name does
  // besides the read model (an action through the context, an outside
  // call). Called after the transaction that applied the event committed,
  // once per event (a crash in between loses it: at most once), and only by
  // the current version: a version catching up never runs it, and after a
  // switch the new version runs it only for events the old one had not
  // reached (Marten's GateSideEffectsBehindPriorVersion). A throw is logged.
  template <class E, class F>
  ProjectionBuilder side_effect(std::string event_name, F effect) && {
    static_assert(std::is_invocable_v<F&, const E&, ReactionContext&>,
                  "side_effect<E>(): effect(const E&, ReactionContext&)");
    if (event_name.empty()) throw std::invalid_argument("projection side_effect(): the event name must not be empty");
    const bool added =
        model_->side_effects
            .emplace(event_name,
                     [effect = std::move(effect)](const Committed& event, ReactionContext& context) mutable {
                       effect(detail::parse_payload<E>(event.data, event.name), context);
                     })
            .second;
    if (!added) throw std::invalid_argument("projection " + model_->name + " has two side effects for " + event_name);
    return std::move(*this);
  }

  // Applied by the app's do_action in the transaction of the commit whose
  // events it handles: the commit and the read model's writes land
  // together or not at all, and a throwing handler fails the action. No
  // background worker drains it; App::rebuild replays it from the log.
  // Commits that bypass the app (Store::commit, SQL) do not apply it.
  ProjectionBuilder run_inline() && {
    model_->run_inline = true;
    return std::move(*this);
  }

  // setup(Sql&): creates the read model's tables; runs when the app starts its reactions.
  template <class F>
  ProjectionBuilder setup(F create) && {
    model_->setup = std::move(create);
    return std::move(*this);
  }
  // truncate(Sql&): empties the read model; a rebuild runs it in the transaction that rewinds the watermark.
  template <class F>
  ProjectionBuilder truncate(F empty) && {
    model_->truncate = std::move(empty);
    return std::move(*this);
  }

  // handler(const E&, const Committed&, Sql&) for each event named event_name.
  template <class E, class F>
  ProjectionBuilder on(std::string event_name, F handler) && {
    static_assert(std::is_invocable_v<F&, const E&, const Committed&, Sql&>,
                  "on<E>(): handler(const E&, const Committed&, Sql&)");
    add(std::move(event_name), [handler = std::move(handler)](const Committed& event, Sql& sql) mutable {
      handler(detail::parse_payload<E>(event.data, event.name), event, sql);
    });
    return std::move(*this);
  }
  // The same, for an event type that names itself (act/event_name.hpp).
  template <named_event E, class F>
  ProjectionBuilder on(F handler) && {
    return std::move(*this).template on<E>(std::string(act::event_name<E>()), std::move(handler));
  }
  // An event the batch handler takes (no handler of its own).
  ProjectionBuilder on(std::string event_name) && {
    add(std::move(event_name), {});
    return std::move(*this);
  }

  // batch(const std::vector<Committed>&, Sql&): all of a cycle's events at
  // once, in order; when set, the per-event handlers are not called. A throw
  // rolls the whole batch back.
  template <class F>
  ProjectionBuilder batch(F handler) && {
    static_assert(std::is_invocable_v<F&, const std::vector<Committed>&, Sql&>,
                  "batch(): handler(const std::vector<Committed>&, Sql&)");
    model_->batch = std::move(handler);
    return std::move(*this);
  }

  Projection build() && {
    if (model_->handlers.empty()) throw std::invalid_argument("projection " + model_->route.target + " handles no event");
    for (const auto& [name, handler] : model_->handlers) {
      if (!handler && !model_->batch)
        throw std::invalid_argument("projection " + model_->route.target + ": event " + name +
                                    " has no handler and there is no batch handler");
    }
    for (const auto& [name, effect] : model_->side_effects) {
      if (!model_->handlers.contains(name))
        throw std::invalid_argument("projection " + model_->route.target + ": a side effect of " + name +
                                    ", an event it does not handle");
    }
    if (model_->run_inline) check_inline();
    return Projection(std::move(model_));
  }

 private:
  void add(std::string event_name, std::function<void(const Committed&, Sql&)> handler) {
    if (event_name.empty()) throw std::invalid_argument("projection on(): the event name must not be empty");
    if (!model_->handlers.emplace(event_name, std::move(handler)).second)
      throw std::invalid_argument("projection " + model_->route.target + " handles " + event_name + " twice");
  }

  // Lanes, priorities and retries belong to the drain, which an inline projection never meets.
  void check_inline() const {
    const std::string owner = "inline projection " + model_->route.target;
    if (model_->route.lane != kDefaultLane)
      throw std::invalid_argument(owner + ": a lane has no meaning, it runs in the committing transaction");
    if (model_->route.priority != 0)
      throw std::invalid_argument(owner + ": a priority has no meaning, it runs in the committing transaction");
    if (model_->route.renamed_from)
      throw std::invalid_argument(owner + ": a former name has no meaning, it has no subscription row");
    if (options_set_)
      throw std::invalid_argument(owner + ": reaction options have no meaning, a failing handler fails the action");
    if (model_->version != 1)
      throw std::invalid_argument(
          owner + ": a later version builds through a subscription of its own, so it cannot run inline");
    if (!model_->side_effects.empty())
      throw std::invalid_argument(owner + ": side effects have no meaning, the action itself is live");
  }

  std::shared_ptr<detail::ProjectionModel> model_;
  bool options_set_ = false;
};

inline ProjectionBuilder projection(std::string target) { return ProjectionBuilder(std::move(target)); }

}  // namespace act
