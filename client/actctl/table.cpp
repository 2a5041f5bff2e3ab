#include "table.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace actctl {

std::string OneLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text;
}

void PrintTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size(), 0);
  auto measure = [&width](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) width[i] = std::max(width[i], row[i].size());
  };
  measure(header);
  for (const auto& row : rows) measure(row);
  auto print = [&width](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) {
      if (i + 1 == row.size())
        line += row[i];
      else
        line += fmt::format("{:<{}}  ", row[i], width[i]);
    }
    fmt::print("{}\n", line);
  };
  print(header);
  for (const auto& row : rows) print(row);
}

}  // namespace actctl
