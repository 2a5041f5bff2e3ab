#pragma once
// How audit findings write what they name: durations a reader scans, and
// names quoted for the shell so that a finding's fix can be pasted as is.
#include <chrono>
#include <string>
#include <string_view>

namespace act::audit_text {

// "42s", "3m20s", "2h5m": whole seconds, the two largest units.
std::string span(std::chrono::microseconds duration);

template <class Rep, class Period>
std::string span(std::chrono::duration<Rep, Period> duration) {
  return span(std::chrono::duration_cast<std::chrono::microseconds>(duration));
}

// 'name', with each ' written '\''.
std::string shell_quoted(std::string_view text);

// The actctl line that parks a subscription row: no worker claims it again.
std::string park_command(std::string_view stream);

}  // namespace act::audit_text
