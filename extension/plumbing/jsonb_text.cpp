#include "jsonb_text.hpp"

#include <cstring>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "pg.hpp"

namespace act::pg {
namespace {

std::uint32_t Load32(const char* at) {
  std::uint32_t value;
  memcpy(&value, at, sizeof value);
  return value;
}

std::uint16_t Load16(const char* at) {
  std::uint16_t value;
  memcpy(&value, at, sizeof value);
  return value;
}

[[noreturn]] void Damaged() {
  throw std::runtime_error("a stored jsonb value is damaged: its offsets run past its end");
}

// Where child data that starts at `offset` begins: numbers and containers
// are padded to 4 bytes relative to the container's data (jsonb.h).
std::uint32_t Aligned(std::uint32_t offset) { return (offset + 3) & ~std::uint32_t{3}; }

// The end offset of a child whose JEntry is `entry` and which starts at `start`.
std::uint32_t EndOf(std::uint32_t entry, std::uint32_t start) {
  return JBE_HAS_OFF(entry) ? JBE_OFFLENFLD(entry) : start + JBE_OFFLENFLD(entry);
}

// The start offset of child `index`, as getJsonbOffset computes it.
std::uint32_t OffsetOf(const char* entries, std::uint32_t index) {
  std::uint32_t offset = 0;
  for (std::uint32_t i = index; i-- > 0;) {
    const std::uint32_t entry = Load32(entries + 4 * static_cast<std::size_t>(i));
    offset += JBE_OFFLENFLD(entry);
    if (JBE_HAS_OFF(entry)) break;
  }
  return offset;
}

// Where the text goes: a cursor into the buffer's free room, kept in
// registers while a value is rendered and committed once at the end (the
// buffer's own size, updated through memory after every write, cost a
// quarter of the rendering).
struct Cursor {
  explicit Cursor(core::ByteBuffer& buffer) : out(buffer), at(buffer.Reserve(0)), limit(at + buffer.room()) {}
  // Room for `count` more bytes at `at`.
  void Ensure(std::size_t count) {
    if (static_cast<std::size_t>(limit - at) >= count) return;
    out.Commit(at);
    at = out.Reserve(count);
    limit = at + out.room();
  }
  void Put(const char* bytes, std::size_t count) {
    Ensure(count);
    memcpy(at, bytes, count);
    at += count;
  }
  void Done() { out.Commit(at); }

  core::ByteBuffer& out;
  char* at;
  char* limit;
};

// escape_json's cases: '"', '\\' and the control characters. NUL ends the
// string, as Postgres's copy of it (pnstrdup) would.
constexpr bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

struct EscapeTable {
  bool needs[256];
  constexpr EscapeTable() : needs() {
    for (int c = 0; c < 256; ++c) needs[c] = NeedsEscape(static_cast<unsigned char>(c));
  }
};
constexpr EscapeTable kEscape;

// Escapes a chunk at a time: room for the worst case (every byte as \u00XX)
// of a whole long string would be six times its size.
constexpr std::size_t kStringChunk = 4096;
// Room beyond the worst case: a run is copied 16 bytes at a time, the
// bytes past its end overwritten afterwards.
constexpr std::size_t kSlack = 16;

// The two-character escapes of escape_json; 0 for a byte written as \u00XX.
constexpr char ShortEscape(unsigned char c) {
  switch (c) {
    case '\b':
      return 'b';
    case '\f':
      return 'f';
    case '\n':
      return 'n';
    case '\r':
      return 'r';
    case '\t':
      return 't';
    case '"':
      return '"';
    case '\\':
      return '\\';
    default:
      return 0;
  }
}

// Writes the escape of one byte that needs it; returns the new end.
char* Escape(unsigned char c, char* at) {
  static constexpr char kHex[] = "0123456789abcdef";
  *at++ = '\\';
  if (const char letter = ShortEscape(c); letter != 0) {
    *at++ = letter;
    return at;
  }
  memcpy(at, "u00", 3);
  at[3] = kHex[c >> 4];
  at[4] = kHex[c & 0x0F];
  return at + 5;
}

#if defined(__SSE2__)
// A bit for each of 16 bytes that needs escaping.
unsigned SpecialBytes(__m128i bytes) {
  const __m128i special =
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"')), _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'))),
                   _mm_cmpeq_epi8(_mm_min_epu8(bytes, _mm_set1_epi8(0x1F)), bytes));  // bytes <= 0x1F
  return static_cast<unsigned>(_mm_movemask_epi8(special));
}
#endif

// A string as escape_json writes it. Runs of bytes that need no escape are
// found 16 bytes at a time wherever 16 bytes can be read within the whole
// jsonb value, from `value` to `readable`: strings are short, but most are
// followed by more of the value, and the last ones are tested in the 16
// bytes that end it.
[[gnu::always_inline]] inline void WriteString(const char* text, std::size_t length, const char* value,
                                               const char* readable, Cursor& cursor) {
  const auto* from = reinterpret_cast<const unsigned char*>(text);
  const unsigned char* const end = from + length;
  [[maybe_unused]] const auto* const readable_end = reinterpret_cast<const unsigned char*>(readable);
  [[maybe_unused]] const bool tail_readable = readable - value >= 16;
  // The quotes and the separator that follows fit in the first chunk's room.
  cursor.Ensure(6 * (length < kStringChunk ? length : kStringChunk) + kSlack + 4);
  char* at = cursor.at;
  *at++ = '"';
  while (from < end) {
    const unsigned char* const chunk_end =
        end - from > static_cast<std::ptrdiff_t>(kStringChunk) ? from + kStringChunk : end;
    if (from != reinterpret_cast<const unsigned char*>(text)) {
      cursor.at = at;
      cursor.Ensure(6 * static_cast<std::size_t>(chunk_end - from) + kSlack + 4);
      at = cursor.at;
    }
    while (from < chunk_end) {
      unsigned char c;
#if defined(__SSE2__)
      if (readable_end - from >= 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(at), bytes);
        unsigned mask = SpecialBytes(bytes);
        const std::ptrdiff_t valid = chunk_end - from < 16 ? chunk_end - from : 16;
        mask &= (1u << valid) - 1;
        if (mask == 0) {
          from += valid;
          at += valid;
          continue;
        }
        const int plain = __builtin_ctz(mask);
        from += plain;
        at += plain;
        c = *from++;
      } else if (tail_readable) {
        const unsigned char* const window = readable_end - 16;
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(window));
        const std::ptrdiff_t valid = chunk_end - from;  // less than 16 here
        const unsigned mask = (SpecialBytes(bytes) >> (from - window)) & ((1u << valid) - 1);
        const std::ptrdiff_t plain = mask == 0 ? valid : __builtin_ctz(mask);
        memcpy(at, from, static_cast<std::size_t>(plain));
        from += plain;
        at += plain;
        if (mask == 0) continue;
        c = *from++;
      } else
#endif
      {
        c = *from++;
        if (!kEscape.needs[c]) {
          *at++ = static_cast<char>(c);
          continue;
        }
      }
      // NUL ends the string, as Postgres's copy of it (pnstrdup) would.
      if (c == '\0') {
        from = end;
        break;
      }
      at = Escape(c, at);
    }
  }
  *at++ = '"';
  cursor.at = at;
}

// The stored numeric format of numeric.c (on disk, so fixed across releases;
// the struct is private to numeric.c): a 2-byte header (short form: sign,
// display scale and weight) or 4 (long form: sign and display scale, then the
// weight), then base-10,000 digits.
constexpr std::uint16_t kNumericSignMask = 0xC000;
constexpr std::uint16_t kNumericNeg = 0x4000;
constexpr std::uint16_t kNumericShort = 0x8000;
constexpr std::uint16_t kNumericSpecial = 0xC000;
constexpr std::uint16_t kNumericPinf = 0xD000;
constexpr std::uint16_t kNumericNinf = 0xF000;
constexpr std::uint16_t kShortSignMask = 0x2000;
constexpr std::uint16_t kShortDscaleMask = 0x1F80;
constexpr int kShortDscaleShift = 7;
constexpr std::uint16_t kShortWeightSignMask = 0x0040;
constexpr std::uint16_t kShortWeightMask = 0x003F;
constexpr std::uint16_t kDscaleMask = 0x3FFF;
constexpr int kDecDigits = 4;

// Writes a numeric the way numeric_out (get_str_from_var) does: no exponent,
// exactly `dscale` digits after the point.
void WriteNumeric(const char* numeric, std::size_t size, Cursor& cursor) {
  std::size_t varlena_header;
  std::size_t total;
  if (size < 1) Damaged();
  if (VARATT_IS_1B(numeric)) {
    varlena_header = 1;
    total = VARSIZE_1B(numeric);
  } else {
    if (size < 4) Damaged();
    const std::uint32_t header = Load32(numeric);
    varlena_header = 4;
    total = VARSIZE_4B(&header);
  }
  if (total > size || total < varlena_header + 2) Damaged();
  const char* body = numeric + varlena_header;
  const std::uint16_t head = Load16(body);
  if ((head & kNumericSignMask) == kNumericSpecial) {
    const std::string_view text = head == kNumericPinf   ? std::string_view("Infinity")
                                  : head == kNumericNinf ? std::string_view("-Infinity")
                                                         : std::string_view("NaN");
    cursor.Put(text.data(), text.size());
    return;
  }
  bool negative;
  int dscale;
  int weight;
  const char* digits;
  if ((head & kNumericSignMask) == kNumericShort) {
    negative = (head & kShortSignMask) != 0;
    dscale = (head & kShortDscaleMask) >> kShortDscaleShift;
    weight = ((head & kShortWeightSignMask) ? ~static_cast<int>(kShortWeightMask) : 0) | (head & kShortWeightMask);
    digits = body + 2;
  } else {
    if (total < varlena_header + 4) Damaged();
    negative = (head & kNumericSignMask) == kNumericNeg;
    dscale = head & kDscaleMask;
    weight = static_cast<std::int16_t>(Load16(body + 2));
    digits = body + 4;
  }
  const int ndigits = static_cast<int>((numeric + total - digits) / 2);
  auto digit = [digits](int index) { return static_cast<int>(static_cast<std::int16_t>(Load16(digits + 2 * index))); };

  const int integer_digits = weight < 0 ? 1 : (weight + 1) * kDecDigits;
  cursor.Ensure(static_cast<std::size_t>(integer_digits + dscale + kDecDigits + 4));  // and a separator after
  char* at = cursor.at;
  if (negative) *at++ = '-';
  int d;
  if (weight < 0) {
    d = weight + 1;
    *at++ = '0';
  } else {
    for (d = 0; d <= weight; d++) {
      int dig = d < ndigits ? digit(d) : 0;
      // The first digit's leading decimal zeroes are not written.
      bool put = d > 0;
      int d1 = dig / 1000;
      dig -= d1 * 1000;
      put |= d1 > 0;
      if (put) *at++ = static_cast<char>('0' + d1);
      d1 = dig / 100;
      dig -= d1 * 100;
      put |= d1 > 0;
      if (put) *at++ = static_cast<char>('0' + d1);
      d1 = dig / 10;
      dig -= d1 * 10;
      put |= d1 > 0;
      if (put) *at++ = static_cast<char>('0' + d1);
      *at++ = static_cast<char>('0' + dig);
    }
  }
  if (dscale > 0) {
    *at++ = '.';
    char* const end = at + dscale;
    for (int i = 0; i < dscale; d++, i += kDecDigits) {
      int dig = (d >= 0 && d < ndigits) ? digit(d) : 0;
      int d1 = dig / 1000;
      dig -= d1 * 1000;
      *at++ = static_cast<char>('0' + d1);
      d1 = dig / 100;
      dig -= d1 * 100;
      *at++ = static_cast<char>('0' + d1);
      d1 = dig / 10;
      dig -= d1 * 10;
      *at++ = static_cast<char>('0' + d1);
      *at++ = static_cast<char>('0' + dig);
    }
    at = end;  // the last group's digits beyond the scale are dropped
  }
  cursor.at = at;
}

}  // namespace

// Inlined, like WriteString: the container's state and the cursor then stay in
// registers (passed through memory, they cost a store-forwarding stall on
// every member).
[[gnu::always_inline]] inline JsonbTextRenderer::Level JsonbTextRenderer::Open(const char* container,
                                                                               std::uint32_t size, const char* end) {
  if (size < 4 || size > static_cast<std::size_t>(end - container)) Damaged();
  const std::uint32_t header = Load32(container);
  const std::uint32_t count = header & JB_CMASK;
  const bool object = (header & JB_FOBJECT) != 0;
  if (!object && (header & JB_FARRAY) == 0) Damaged();
  const std::uint64_t entry_count = object ? 2 * std::uint64_t{count} : count;
  if (4 + 4 * entry_count > size) Damaged();
  Level level;
  level.entries = container + 4;
  level.base = level.entries + 4 * entry_count;
  level.count = count;
  level.next = 0;
  level.key_at = 0;
  level.value_at = object ? OffsetOf(level.entries, count) : 0;
  level.object = object;
  level.raw_scalar = (header & JB_FSCALAR) != 0;
  return level;
}

void JsonbTextRenderer::Append(std::string_view jsonb, core::ByteBuffer& out) {
  const char* const end = jsonb.data() + jsonb.size();
  if (jsonb.size() > JENTRY_OFFLENMASK + std::size_t{4}) Damaged();
  Cursor cursor(out);
  levels_.clear();
  // The container being written is a local (registers), its parents wait in levels_.
  Level level = Open(jsonb.data(), static_cast<std::uint32_t>(jsonb.size()), end);
  if (!level.raw_scalar) cursor.Put(level.object ? "{" : "[", 1);
  for (;;) {
    if (level.next == level.count) {
      if (!level.raw_scalar) cursor.Put(level.object ? "}" : "]", 1);
      if (levels_.empty()) break;
      level = levels_.back();
      levels_.pop_back();
      continue;
    }
    if (level.next > 0) cursor.Put(", ", 2);
    const std::uint32_t index = level.next++;
    std::uint32_t entry;
    if (level.object) {
      const std::uint32_t key_end = EndOf(Load32(level.entries + 4 * std::size_t{index}), level.key_at);
      if (key_end < level.key_at || key_end > static_cast<std::size_t>(end - level.base)) Damaged();
      WriteString(level.base + level.key_at, key_end - level.key_at, jsonb.data(), end, cursor);
      level.key_at = key_end;
      cursor.Put(": ", 2);
      entry = Load32(level.entries + 4 * (std::size_t{level.count} + index));
    } else {
      entry = Load32(level.entries + 4 * std::size_t{index});
    }
    const std::uint32_t start = level.value_at;
    const std::uint32_t stop = EndOf(entry, start);
    if (stop < start || stop > static_cast<std::size_t>(end - level.base)) Damaged();
    level.value_at = stop;
    switch (entry & JENTRY_TYPEMASK) {
      case JENTRY_ISSTRING:
        WriteString(level.base + start, stop - start, jsonb.data(), end, cursor);
        break;
      case JENTRY_ISNUMERIC:
        if (Aligned(start) > stop) Damaged();
        WriteNumeric(level.base + Aligned(start), stop - Aligned(start), cursor);
        break;
      case JENTRY_ISBOOL_FALSE:
        cursor.Put("false", 5);
        break;
      case JENTRY_ISBOOL_TRUE:
        cursor.Put("true", 4);
        break;
      case JENTRY_ISNULL:
        cursor.Put("null", 4);
        break;
      case JENTRY_ISCONTAINER: {
        if (Aligned(start) > stop) Damaged();
        const Level child = Open(level.base + Aligned(start), stop - Aligned(start), end);
        levels_.push_back(level);
        level = child;
        if (!level.raw_scalar) cursor.Put(level.object ? "{" : "[", 1);
        break;
      }
      default:
        Damaged();
    }
  }
  cursor.Done();
}

}  // namespace act::pg
