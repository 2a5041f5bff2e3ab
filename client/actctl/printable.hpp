#pragma once
// Text from the store made safe for a terminal: stream names, event names,
// payloads and errors are whatever a client wrote, and a control character
// in them (an escape sequence, a carriage return) would rewrite the screen
// or forge a line. And payloads cut to a length a line can show.
#include <cstddef>
#include <string>
#include <string_view>

namespace actctl {

// `text` with every control character written as an escape: \n, \r and \t,
// the other C0 ones and DEL as \xNN, C1 ones (two bytes in UTF-8) as \u00NN.
std::string Printable(std::string_view text);

// The longest a payload prints without --full, in bytes.
inline constexpr std::size_t kPayloadBytes = 200;

// `text` if it is at most `max_bytes` long; otherwise its first bytes up to
// a character boundary and a note of how many bytes were left out.
std::string Cut(std::string_view text, std::size_t max_bytes);

}  // namespace actctl
