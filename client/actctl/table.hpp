#pragma once
// Plain-text output the database commands share: one-line messages and
// aligned tables (no colors: the output is for people and grep).
#include <string>
#include <vector>

namespace actctl {

// libpq's and the server's messages may end in a newline and span lines: one line of them.
std::string OneLine(std::string text);

// Prints a table: a header row and the rows, columns padded to their widest
// cell, separated by two spaces.
void PrintTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

}  // namespace actctl
