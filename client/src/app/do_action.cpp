// The action pipeline (App::do_action).
#include <stdexcept>
#include <thread>

#include "act/errors.hpp"
#include "app/app_core.hpp"
#include "app/causation.hpp"
#include "app/loader.hpp"
#include "backoff.hpp"
#include "random_uuid.hpp"
#include "react/inline_commit.hpp"

namespace act::app_detail {
namespace {

void check_invariants(const detail::ActionModel& action, const detail::AnySnapshot& loaded, const Target& target) {
  for (const detail::Invariant& invariant : action.invariants) {
    if (!invariant.holds(loaded.state, target.actor)) throw InvariantError(action.name, target.stream, invariant.description);
  }
}

// Names typed events by the state's declarations and checks every payload
// converts to its event type, so nothing malformed reaches the log.
std::vector<Message> to_messages(const detail::StateModel& model, const Events& emitted) {
  std::vector<Message> messages;
  messages.reserve(emitted.size());
  for (const Emitted& event : emitted) {
    std::string name = event.name;
    if (name.empty()) {
      const auto declared = model.event_names.find(event.type);
      if (declared == model.event_names.end()) {
        throw std::logic_error("state " + model.name + " emitted an event type (" + event.type.name() +
                               ") it does not declare: add patch<E>(name, reducer)");
      }
      name = declared->second;
    }
    if (name == kSnapshotEvent || name == kTombstoneEvent) {
      throw ValidationError(model.name + ": actions cannot emit " + name, name, {});
    }
    if (const auto replaced = model.deprecated.find(name); replaced != model.deprecated.end()) {
      throw std::logic_error("state " + model.name + " emitted " + name + ", which " + replaced->second +
                             " replaces: emit " + replaced->second + " (the reducer of " + name +
                             " stays, for the events already stored)");
    }
    const auto reducer = model.reducers.find(name);
    if (reducer == model.reducers.end()) {
      throw std::logic_error("state " + model.name + " emitted " + name +
                             ", which it does not declare: add patch<E>(\"" + name + "\", reducer)");
    }
    reducer->second.validate(event.data);
    messages.push_back(detail::split_personal_data(Message{std::move(name), event.data, std::nullopt}, model.sensitive));
  }
  return messages;
}

// fold → snapshot → cache, once the commit went through.
ActionResult finish_action(AppCore& core, const detail::StateModel& model, const Target& target,
                           detail::AnySnapshot loaded, std::vector<Committed> committed,
                           const std::vector<Message>& sent, std::int32_t attempt) {
  const std::string& stream = target.stream;
  ActionResult result;
  result.attempts = attempt;
  const bool contiguous = committed.front().version == loaded.version + 1;
  detail::AnySnapshot after = std::move(loaded);
  if (contiguous) {
    for (std::size_t i = 0; i < committed.size(); ++i) {
      // The action folds what it wrote in plaintext, whatever the role may read back.
      Committed written = committed[i];
      if (i < sent.size()) written.pii = sent[i].pii;
      fold(model, after, written, SnapshotUse::kRestore, detail::Disclosure::kPlaintext);
    }
  } else {
    // Events we never saw came first (a pinned version met a moved head):
    // fold from the store rather than guess.
    core.cache.drop(stream);
    after = load_current(core.store, core.cache, core.counters, model, stream, CacheUse::kBypass, &target.actor);
  }

  if (contiguous && model.snap && model.snap(after.state, SnapStats{after.version, after.id, after.patches, after.snaps})) {
    const Committed& last = committed.back();
    try {
      nlohmann::json meta = snapshot_meta(last.meta.value("correlation", ""), last);
      meta["state_version"] = model.version;  // a later shape of the state passes it over
      const auto snapshot = core.store.commit(stream, {Message{std::string(kSnapshotEvent), model.serialize(after.state), {}}},
                                              meta, after.version);
      after.version = snapshot.front().version;
      after.id = snapshot.front().id;
      after.patches = 0;
      ++after.snaps;
      result.snapshotted = true;
      Counters::bump(core.counters.snapshots);
    } catch (const Error& error) {
      // The action is committed; a missed snapshot only makes the next cold load longer.
      Counters::bump(core.counters.snapshot_failures);
      core.observers.log(LogLevel::kWarning, "snapshot commit failed; the action is committed",
                         {{"state", model.name},
                          {"stream", stream},
                          {"version", std::to_string(after.version)},
                          {"error", error.what()}});
    }
  }
  if (contiguous && !model.personal()) core.cache.put(stream, cache_entry(after));

  result.events = std::move(committed);
  result.version = after.version;
  result.id = after.id;
  result.state = std::move(after.state);
  return result;
}

// A keyed action whose commit landed before (a retry after a lost reply, or
// a request repeated): the events that commit wrote, with the state now.
ActionResult already_done(AppCore& core, const detail::StateModel& model, const Target& target,
                          std::vector<Committed> events, std::int32_t attempt) {
  core.cache.drop(target.stream);
  detail::AnySnapshot now =
      load_current(core.store, core.cache, core.counters, model, target.stream, CacheUse::kBypass, &target.actor);
  ActionResult result;
  result.attempts = attempt;
  result.events = std::move(events);
  result.version = now.version;
  result.id = now.id;
  result.state = std::move(now.state);
  return result;
}

// The connection broke or the server went away while the commit was on its
// way: it may or may not have landed.
bool in_doubt(const StoreError& error) {
  const std::string& code = error.sqlstate();
  return code.empty() || code == "40003" || code.starts_with("08") || code.starts_with("57P");
}

// The commit, with the inline projections its events are for in the same transaction.
std::vector<Committed> commit_events(AppCore& core, const std::string& stream, const std::vector<Message>& messages,
                                     const nlohmann::json& meta, std::optional<std::int32_t> expected) {
  if (!core.reactor->has_inline()) return core.store.commit(stream, messages, meta, expected);
  std::vector<std::string> names;
  names.reserve(messages.size());
  for (const Message& message : messages) names.push_back(message.name);
  const std::vector<react::InlineCandidate> candidates = core.reactor->inline_candidates(stream, names);
  if (candidates.empty()) return core.store.commit(stream, messages, meta, expected);
  return react::commit_inline(core.store.pool(), core.reactor->registry(), candidates, stream, messages, meta, expected);
}

// A keyed commit whose outcome is in doubt is sent again as it was: if the
// first landed, the database answers with its rows. Up to three times.
std::vector<Committed> commit_keyed(AppCore& core, const detail::ActionModel& action, const std::string& stream,
                                    const std::vector<Message>& messages, const nlohmann::json& meta,
                                    std::optional<std::int32_t> expected) {
  for (int resent = 0;; ++resent) {
    try {
      return commit_events(core, stream, messages, meta, expected);
    } catch (const StoreError& error) {
      if (!in_doubt(error) || resent >= 3) throw;
      std::this_thread::sleep_for(backoff_delay(action.retry.backoff, resent));
    }
  }
}

}  // namespace

ActionResult run_action(AppCore& core, std::string_view action_name, const Target& target,
                        const nlohmann::json& payload, const DoOptions& options,
                        const std::optional<EventRef>& caused_by) {
  const auto owner = core.action_owners.find(action_name);
  if (owner == core.action_owners.end()) throw std::invalid_argument("no state declares action " + std::string(action_name));
  const detail::StateModel& model = *owner->second;
  const detail::ActionModel& action = model.actions.find(action_name)->second;
  if (target.stream.empty()) throw ValidationError(action.name + ": the target stream is empty", action.name, "stream");

  // Once, before any attempt: a payload does not get better by retrying.
  const std::any parsed = action.parse(payload);
  nlohmann::json meta =
      action_meta(options.correlation.value_or(detail::random_uuid()), action.name, target, caused_by);
  const std::optional<std::string>& key = options.idempotency_key;
  if (key) meta["idempotency_key"] = *key;
  // What a keyed action that already ran answers with: the events of the
  // commit its key made, with the state now; none without a key or before it landed.
  std::int32_t attempt = 1;
  const auto done_before = [&]() -> std::optional<ActionResult> {
    if (!key) return std::nullopt;
    std::vector<Committed> done = core.store.commit_by_key(target.stream, *key);
    if (done.empty()) return std::nullopt;
    return already_done(core, model, target, std::move(done), attempt);
  };

  const auto load = [&](bool use_cache) {
    return load_current(core.store, core.cache, core.counters, model, target.stream,
                        use_cache ? CacheUse::kTrust : CacheUse::kBypass, &target.actor);
  };
  int retries_used = 0;
  bool conflict_recheck_used = false;
  bool read_store = false;  // skip the cache for the next load
  for (;; ++attempt) {
    detail::AnySnapshot loaded = load(!read_store);
    read_store = false;
    if (target.expected_version && loaded.cache_hit && loaded.version != *target.expected_version) {
      // The pinned version is checked against the store, not a cache that may be behind.
      loaded = load(false);
    }
    if (loaded.event && loaded.event->name == kTombstoneEvent) throw StreamClosedError(target.stream);
    if (target.expected_version && loaded.version != *target.expected_version) {
      // Read from the store (a cache hit is reloaded above, and a recheck
      // reads the store): the pinned version is stale, whatever the rules
      // would say of a state the caller never saw. The commit would refuse it too.
      // Unless this keyed action is what moved it.
      if (std::optional<ActionResult> done = done_before()) return std::move(*done);
      Counters::bump(core.counters.conflicts);
      throw ConcurrencyError(target.stream, target.expected_version, loaded.version);
    }
    Events emitted;
    try {
      check_invariants(action, loaded, target);
      emitted = action.emit(parsed, loaded.state, target);
    } catch (const InvariantError&) {
      // A refusal must rest on the store's state, not on a cache that may be
      // behind (commits by other processes): check once more on a fresh load.
      if (!loaded.cache_hit) {
        // A keyed action that already ran meets the state it made.
        if (std::optional<ActionResult> done = done_before()) return std::move(*done);
        throw;
      }
      read_store = true;
      Counters::bump(core.counters.cache_rechecks);
      continue;
    }
    if (emitted.empty()) {
      if (std::optional<ActionResult> done = done_before()) return std::move(*done);
      ActionResult unchanged;
      unchanged.version = loaded.version;
      unchanged.id = loaded.id;
      unchanged.attempts = attempt;
      unchanged.state = std::move(loaded.state);
      return unchanged;
    }
    const std::vector<Message> messages = to_messages(model, emitted);

    std::vector<Committed> committed;
    try {
      // The loaded version guards the commit; -1 (a new stream) means it must still not exist.
      const std::optional<std::int32_t> expected = target.expected_version.value_or(loaded.version);
      committed = key ? commit_keyed(core, action, target.stream, messages, meta, expected)
                      : commit_events(core, target.stream, messages, meta, expected);
    } catch (const ValidationError& error) {
      // A keyed action that already ran may emit other events on the state
      // it made: the database refuses them under the used key. Any other
      // refusal is the caller's to see.
      if (key && error.sqlstate() == "22023" &&
          std::string_view(error.what()).find("belongs to a commit with other events") != std::string_view::npos) {
        if (std::optional<ActionResult> done = done_before()) return std::move(*done);
      }
      throw;
    } catch (const StreamClosedError&) {
      core.cache.drop(target.stream);
      throw;
    } catch (const ConcurrencyError&) {
      core.cache.invalidate(target.stream, loaded.id);
      Counters::bump(core.counters.conflicts);
      if (target.expected_version) throw;
      if (loaded.cache_hit && !conflict_recheck_used) {
        conflict_recheck_used = true;
        read_store = true;
        Counters::bump(core.counters.cache_rechecks);
        continue;
      }
      if (retries_used >= action.retry.max_retries) throw;
      std::this_thread::sleep_for(backoff_delay(action.retry.backoff, retries_used));
      ++retries_used;
      Counters::bump(core.counters.retries);
      continue;
    }
    // The database answered with the key's earlier commit, which the state
    // loaded already holds: it was told of when it landed.
    if (key && committed.front().version <= loaded.version)
      return already_done(core, model, target, std::move(committed), attempt);
    ActionResult result = finish_action(core, model, target, std::move(loaded), std::move(committed), messages, attempt);
    core.observers.committed(result.events);
    core.reactor->committed(result.events);
    return result;
  }
}

}  // namespace act::app_detail
