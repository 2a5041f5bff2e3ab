#pragma once
// An event type's name, declared once with the type:
//
//   struct Incremented { static constexpr std::string_view event_name = "Incremented"; int by = 0; };
//   // or, for a type you cannot change:
//   ACT_EVENT_NAME(Incremented, "Incremented");   // at global scope
//
// Then patch<E>(reducer), on<E>() and a projection's on<E>(handler) need no
// name, and every use of the type agrees on it.
#include <concepts>
#include <string_view>

namespace act {

// Specialize with `static constexpr std::string_view value` (ACT_EVENT_NAME does).
template <class E>
struct event_name_of {};

template <class E>
concept named_event = requires {
  { E::event_name } -> std::convertible_to<std::string_view>;
} || requires {
  { event_name_of<E>::value } -> std::convertible_to<std::string_view>;
};

template <named_event E>
constexpr std::string_view event_name() {
  if constexpr (requires { event_name_of<E>::value; }) {
    return event_name_of<E>::value;
  } else {
    return E::event_name;
  }
}

}  // namespace act

#define ACT_EVENT_NAME(Type, Name)                  \
  template <>                                       \
  struct act::event_name_of<Type> {                 \
    static constexpr std::string_view value = Name; \
  }
