#pragma once
// What actctl asks of the terminal it writes to: whether it is one, whether
// colours are welcome there, and how wide it is.
#include <cstdio>

namespace actctl {

// Whether `stream` is a terminal.
bool IsTerminal(std::FILE* stream);

// Whether output to `stream` may carry colours: a terminal, NO_COLOR unset
// or empty (no-color.org), and a TERM other than "dumb".
bool ColoursWanted(std::FILE* stream);

// The terminal's width in columns; 80 when it cannot be told.
int TerminalWidth(std::FILE* stream);

}  // namespace actctl
