#include "regex_cache.hpp"

#include <memory>
#include <string>
#include <unordered_map>

#include "act/core/errors.hpp"
#include "act/core/subscription_input.hpp"
#include "error_bridge.hpp"
#include "jsonb_access.hpp"

extern "C" {
#include "catalog/pg_collation.h"
#include "mb/pg_wchar.h"
#include "regex/regex.h"
}

namespace act::pg {
namespace {

// Compiled patterns live in malloc'd memory owned by the regex engine.
struct RegexFree {
  void operator()(regex_t* regex) const {
    pg_regfree(regex);
    std::default_delete<regex_t>()(regex);
  }
};
using CompiledPattern = std::unique_ptr<regex_t, RegexFree>;

// Patterns are few (one per pattern subscription); the cap only guards
// against a pathological number of distinct ones.
constexpr std::size_t kMaxCachedPatterns = 10000;

std::unordered_map<std::string, CompiledPattern>& Cache() {
  static std::unordered_map<std::string, CompiledPattern> cache;
  return cache;
}

// Returns nullptr with `error` filled when the pattern is invalid.
regex_t* Compile(std::string_view pattern, std::string* error) {
  auto& cache = Cache();
  if (auto found = cache.find(std::string(pattern)); found != cache.end()) return found->second.get();
  auto regex = std::make_unique<regex_t>();
  regex_t* target = regex.get();
  const char* bytes = pattern.data();
  const int length = static_cast<int>(pattern.size());
  char message[256] = {0};
  char* message_out = message;
  const int code = Guard([target, bytes, length, message_out] {
    pg_wchar* wide = static_cast<pg_wchar*>(palloc((static_cast<Size>(length) + 1) * sizeof(pg_wchar)));
    const int wide_length = pg_mb2wchar_with_len(bytes, wide, length);
    const int result = pg_regcomp(target, wide, static_cast<size_t>(wide_length), REG_ADVANCED, C_COLLATION_OID);
    pfree(wide);
    if (result != REG_OKAY) {
      // A cancel or statement_timeout stops the engine (REG_CANCEL): raise
      // that (57014), as Postgres's own regex functions do, not a bad pattern.
      CHECK_FOR_INTERRUPTS();
      pg_regerror(result, target, message_out, 256);
    }
    return result;
  });
  if (code != REG_OKAY) {
    *error = message;
    return nullptr;
  }
  if (cache.size() >= kMaxCachedPatterns) cache.clear();
  CompiledPattern compiled(regex.release());
  return cache.emplace(std::string(pattern), std::move(compiled)).first->second.get();
}

}  // namespace

void ValidatePattern(std::string_view pattern, std::string_view what) {
  std::string error;
  if (Compile(pattern, &error) == nullptr)
    throw core::ValidationError("invalid regular expression in " + std::string(what) + ": " + error,
                                core::sqlstate::kInvalidRegularExpression);
}

bool PatternMatches(std::string_view pattern, std::string_view text) {
  std::string error;
  regex_t* regex = Compile(pattern, &error);
  if (regex == nullptr)
    throw core::ValidationError("invalid regular expression in a subscription source: " + error,
                                core::sqlstate::kInvalidRegularExpression);
  const char* bytes = text.data();
  const int length = static_cast<int>(text.size());
  return Guard([regex, bytes, length] {
    pg_wchar* wide = static_cast<pg_wchar*>(palloc((static_cast<Size>(length) + 1) * sizeof(pg_wchar)));
    const int wide_length = pg_mb2wchar_with_len(bytes, wide, length);
    const int result = pg_regexec(regex, wide, static_cast<size_t>(wide_length), 0, nullptr, 0, nullptr, 0);
    pfree(wide);
    if (result != REG_OKAY && result != REG_NOMATCH) {
      CHECK_FOR_INTERRUPTS();  // as in Compile
      char message[256];
      pg_regerror(result, regex, message, sizeof message);
      ereport(ERROR, (errcode(ERRCODE_INVALID_REGULAR_EXPRESSION), errmsg("regular expression failed: %s", message)));
    }
    return result == REG_OKAY;
  });
}

}  // namespace act::pg

using namespace act;

// act._is_pattern(source): the partial index of wide subscriptions and the
// monitoring queries ask core::IsPattern too, so the characters that make a
// source a pattern are written once.
ACT_SQL_FUNCTION(act_is_pattern) { return BoolGetDatum(core::IsPattern(pg::TextArg(fcinfo, 0))); }
