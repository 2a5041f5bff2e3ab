#pragma once
// What an action's emit handler returns: one or more events, typed (named by
// the state's patch<E>("Name", ...) declarations) or named explicitly.
#include <cstddef>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace act {

struct Emitted {
  std::type_index type;  // typeid(void) when named explicitly
  std::string name;      // empty: resolved from type by the state
  nlohmann::json data;
};

class Events {
 public:
  template <class E>
  Events& add(const E& event) {
    list_.push_back(Emitted{typeid(E), {}, nlohmann::json(event)});
    return *this;
  }
  Events& add(std::string name, nlohmann::json data) {
    list_.push_back(Emitted{typeid(void), std::move(name), std::move(data)});
    return *this;
  }

  auto begin() const noexcept { return list_.begin(); }
  auto end() const noexcept { return list_.end(); }
  std::size_t size() const noexcept { return list_.size(); }
  bool empty() const noexcept { return list_.empty(); }

 private:
  std::vector<Emitted> list_;
};

// act::events(Opened{...}, Assigned{...}): typed events in commit order.
template <class... E>
Events events(const E&... event) {
  Events out;
  (out.add(event), ...);
  return out;
}

}  // namespace act
