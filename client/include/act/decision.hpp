#pragma once
// A decision over a dynamic consistency boundary (docs/dcb.md): the events a
// query names, wherever they are, fold into a model; decide turns the model
// and a command into the events to append, or refuses by throwing; the
// append states the same query and the last id read as its condition, so it
// fails when a matching event landed in between, and the decision runs again
// on a fresh read, up to retries() times.
//
//   auto enrol = act::decision<Seats, Enrol>("enrol")
//       .query([](const Enrol& c) {
//         return act::EventQuery{{{{"CourseDefined", "Enrolled"}, {"course:" + c.course}},
//                                 {{"Enrolled"}, {"student:" + c.student}}}};
//       })
//       .on<CourseDefined>("CourseDefined", [](Seats& s, const CourseDefined& e, const act::Committed&) {...})
//       .on<Enrolled>("Enrolled", [](Seats& s, const Enrolled& e, const act::Committed& event) {...})
//       .decide([](const Seats& s, const Enrol& c) -> std::vector<act::StreamMessage> {...})
//       .build();
//   act::Decided done = app.decide(enrol, Enrol{"c1", "s7"});
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/boundary.hpp"
#include "act/detail/payload.hpp"
#include "act/errors.hpp"
#include "act/event.hpp"
#include "act/store.hpp"

namespace act {

// What a decision did: the events it appended (none when decide returned
// none), how many times it read and decided, and how many events its last
// read folded.
struct Decided {
  std::vector<Committed> events;
  std::int32_t attempts = 1;
  std::int64_t read = 0;
};

template <class M, class C>
class Decision {
 public:
  const std::string& name() const noexcept { return name_; }
  EventQuery query(const C& command) const { return query_(command); }
  std::int32_t retries() const noexcept { return retries_; }

  // Reads what boundary (this decision's query(command)) matches, folds,
  // decides and appends on `store`, again after an AppendConditionError
  // while retries last; meta goes with the append. decide's exceptions (an
  // InvariantError) pass to the caller untouched.
  Decided run(Store& store, const C& command, const EventQuery& boundary, const nlohmann::json& meta) const {
    for (std::int32_t attempt = 1;; ++attempt) {
      M model = initial_ ? initial_(command) : M{};
      std::int64_t last = -1;
      std::int64_t folded = 0;
      store.read(boundary, -1, [&](const Committed& event) {
        if (const auto fold = folds_.find(event.name); fold != folds_.end()) fold->second(model, event);
        last = event.id;
        ++folded;
      });
      std::vector<StreamMessage> events = decide_(model, command);
      if (events.empty()) return Decided{{}, attempt, folded};
      try {
        // A matching event above `last` is one this decision did not see.
        return Decided{store.append(events, AppendCondition{boundary, last, {}}, meta), attempt, folded};
      } catch (const AppendConditionError&) {
        if (attempt > retries_) throw;
      }
    }
  }

 private:
  template <class, class>
  friend class DecisionBuilder;

  std::string name_;
  std::function<EventQuery(const C&)> query_;
  std::function<M(const C&)> initial_;
  std::map<std::string, std::function<void(M&, const Committed&)>, std::less<>> folds_;
  std::function<std::vector<StreamMessage>(const M&, const C&)> decide_;
  std::int32_t retries_ = 3;
};

template <class M, class C>
class DecisionBuilder {
 public:
  explicit DecisionBuilder(std::string name) {
    if (name.empty()) throw std::invalid_argument("decision(): the name must not be empty");
    decision_.name_ = std::move(name);
  }

  // The boundary: the events the command's decision depends on.
  DecisionBuilder query(std::function<EventQuery(const C&)> query) && {
    decision_.query_ = std::move(query);
    return std::move(*this);
  }
  // The model before the first event, made from the command (default: M{}),
  // so that folds can tell the command's course from another, say.
  DecisionBuilder initial(std::function<M(const C&)> initial) && {
    decision_.initial_ = std::move(initial);
    return std::move(*this);
  }
  // How an event of this name (its payload converted to E) changes the model;
  // events the query matches with no fold are counted, not folded.
  template <class E, class F>
  DecisionBuilder on(std::string event_name, F fold) && {
    static_assert(std::is_invocable_v<F&, M&, const E&, const Committed&>,
                  "on(): fold(M&, const E&, const Committed&)");
    if (event_name.empty()) throw std::invalid_argument("decision " + decision_.name_ + ": an event name is empty");
    const std::string name = event_name;
    auto [where, added] = decision_.folds_.emplace(
        std::move(event_name), [fold = std::move(fold), name](M& model, const Committed& event) mutable {
          fold(model, detail::parse_payload<E>(event.data, name), event);
        });
    if (!added) throw std::invalid_argument("decision " + decision_.name_ + ": " + where->first + " is folded twice");
    return std::move(*this);
  }
  // The events to append for the command on the folded model (none: nothing
  // to do), or a throw (act::InvariantError) to refuse it.
  DecisionBuilder decide(std::function<std::vector<StreamMessage>(const M&, const C&)> decide) && {
    decision_.decide_ = std::move(decide);
    return std::move(*this);
  }
  // Decisions run again after an append whose condition failed (default 3).
  DecisionBuilder retries(std::int32_t retries) && {
    if (retries < 0) throw std::invalid_argument("decision " + decision_.name_ + ": retries must be 0 or more");
    decision_.retries_ = retries;
    return std::move(*this);
  }
  Decision<M, C> build() && {
    if (!decision_.query_) throw std::invalid_argument("decision " + decision_.name_ + ": no query");
    if (!decision_.decide_) throw std::invalid_argument("decision " + decision_.name_ + ": no decide");
    return std::move(decision_);
  }

 private:
  Decision<M, C> decision_;
};

template <class M, class C>
DecisionBuilder<M, C> decision(std::string name) {
  return DecisionBuilder<M, C>(std::move(name));
}

}  // namespace act
