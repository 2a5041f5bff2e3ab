// Quoting of the names actctl import puts into its SELECTs (standard SQL:
// the quote character doubled; standard_conforming_strings is on since
// PostgreSQL 9.1, so a backslash is an ordinary character).
#include "import_source.hpp"

namespace actctl {

namespace {

std::string Quoted(const std::string& text, char quote) {
  std::string out(1, quote);
  for (const char c : text) {
    if (c == quote) out += quote;
    out += c;
  }
  return out + quote;
}

}  // namespace

std::string QuoteIdentifier(const std::string& name) { return Quoted(name, '"'); }
std::string QuoteLiteral(const std::string& text) { return Quoted(text, '\''); }

}  // namespace actctl
