#include "store/event_json.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "act/errors.hpp"

namespace act::store_rows {
namespace {

using nlohmann::json;

[[noreturn]] void malformed(const std::string& what) { throw Error("malformed event JSON: " + what); }

// Builds one json value from SAX events into a target; inactive once the value is complete.
class TreeBuilder {
 public:
  bool active() const { return root_ != nullptr; }
  void start(json& root) {
    root_ = &root;
    open_.clear();
  }
  void value(json scalar) {
    place() = std::move(scalar);
    finish_if_closed();
  }
  void open(json container) {
    json& slot = place();
    slot = std::move(container);
    open_.push_back(&slot);
  }
  void key(std::string& name) { member_ = &(*open_.back())[std::move(name)]; }
  void close() {
    open_.pop_back();
    finish_if_closed();
  }

 private:
  // Where the next value goes; an array's elements and an object's members keep their addresses while open.
  json& place() {
    if (open_.empty()) return *root_;
    json& top = *open_.back();
    return top.is_array() ? top.emplace_back() : *member_;
  }
  void finish_if_closed() {
    if (open_.empty()) root_ = nullptr;
  }

  json* root_ = nullptr;
  json* member_ = nullptr;
  std::vector<json*> open_;
};

enum Key : unsigned {
  kId = 1,
  kStream = 2,
  kVersion = 4,
  kName = 8,
  kData = 16,
  kMeta = 32,
  kCreated = 64,
  kPii = 128,
  kTags = 256,
  kOther = 512
};
constexpr unsigned kRequired = kId | kStream | kVersion | kName | kData | kMeta | kCreated;

// The keys the client reads, by their names in the event object.
constexpr std::pair<std::string_view, Key> kKeys[] = {{"id", kId},           {"stream", kStream}, {"version", kVersion},
                                                      {"name", kName},       {"data", kData},     {"meta", kMeta},
                                                      {"created", kCreated}, {"pii", kPii},       {"tags", kTags}};

Key key_of(std::string_view name) {
  for (const auto& [spelled, key] : kKeys)
    if (spelled == name) return key;
  return kOther;
}

std::string_view name_of(unsigned key) {
  for (const auto& [spelled, known] : kKeys)
    if (known == key) return spelled;
  return "field";
}

// The SAX handler: an array of event objects (or one object), each read
// field by field into a Committed; data, meta, pii and tags go through the
// tree builder, keys the client does not read are built and dropped.
class EventReader {
 public:
  explicit EventReader(bool list) : event_depth_(list ? 2 : 1) {}

  std::vector<Committed> take() { return std::move(events_); }

  bool null() { return scalar(json(nullptr), "null"); }
  bool boolean(bool value) { return scalar(json(value), "a boolean"); }
  bool number_integer(std::int64_t value) { return integer(value) || scalar(json(value), "a number"); }
  bool number_unsigned(std::uint64_t value) {
    return integer(static_cast<std::int64_t>(value)) || scalar(json(value), "a number");
  }
  bool number_float(double value, const std::string&) { return scalar(json(value), "a number"); }
  bool binary(json::binary_t&) { malformed("binary value"); }

  bool string(std::string& value) {
    if (tree_.active()) return tree_.value(json(std::move(value))), true;
    if (depth_ == event_depth_) {
      switch (field_) {
        case kStream:
          event_.stream = std::move(value);
          return true;
        case kName:
          event_.name = std::move(value);
          return true;
        case kCreated:
          event_.created = parse_timestamp(value);
          return true;
        default:
          break;
      }
    }
    return scalar(json(std::move(value)), "a string");
  }

  bool start_object(std::size_t) {
    if (tree_.active()) return tree_.open(json::object()), true;
    if (depth_ + 1 != event_depth_)
      malformed(depth_ == 0 ? "expected an array of events" : "an event holds an object where a scalar belongs");
    ++depth_;
    event_ = Committed{};
    seen_ = 0;
    pii_ = json();
    tags_ = json();
    return true;
  }
  bool key(std::string& name) {
    if (tree_.active()) return tree_.key(name), true;
    field_ = key_of(name);
    seen_ |= field_;
    switch (field_) {
      case kData:
        tree_.start(event_.data);
        break;
      case kMeta:
        tree_.start(event_.meta);
        break;
      case kPii:
        tree_.start(pii_);
        break;
      case kTags:
        tree_.start(tags_);
        break;
      case kOther:
        tree_.start(ignored_);
        break;
      default:
        break;
    }
    return true;
  }
  bool end_object() {
    if (tree_.active()) return tree_.close(), true;
    if (const unsigned missing = kRequired & ~seen_; missing != 0)
      malformed("an event has no \"" + std::string(name_of(1u << std::countr_zero(missing))) + "\"");
    if (!pii_.is_null()) event_.pii = std::move(pii_);
    if (!tags_.is_null()) {
      if (!tags_.is_array() ||
          !std::all_of(tags_.begin(), tags_.end(), [](const json& tag) { return tag.is_string(); }))
        malformed("\"tags\" is not an array of strings");
      event_.tags = tags_.get<std::vector<std::string>>();
    }
    events_.push_back(std::move(event_));
    --depth_;
    return true;
  }

  bool start_array(std::size_t) {
    if (tree_.active()) return tree_.open(json::array()), true;
    if (depth_ != 0 || event_depth_ != 2) malformed("an array where an event or its field belongs");
    ++depth_;
    return true;
  }
  bool end_array() {
    if (tree_.active()) return tree_.close(), true;
    --depth_;
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const json::exception& error) { malformed(error.what()); }

 private:
  // id and version at the event's level.
  bool integer(std::int64_t value) {
    if (tree_.active() || depth_ != event_depth_) return false;
    if (field_ == kId) return event_.id = value, true;
    if (field_ == kVersion) return event_.version = static_cast<std::int32_t>(value), true;
    return false;
  }
  bool scalar(json value, const char* what) {
    if (tree_.active()) return tree_.value(std::move(value)), true;
    if (depth_ != event_depth_) malformed(std::string("expected an event, found ") + what);
    malformed("\"" + std::string(name_of(field_)) + "\" is " + what);
  }

  const int event_depth_;
  int depth_ = 0;
  Key field_ = kOther;
  unsigned seen_ = 0;
  Committed event_;
  json pii_;
  json tags_;
  json ignored_;
  TreeBuilder tree_;
  std::vector<Committed> events_;
};

std::vector<Committed> read(std::string_view text, bool list) {
  EventReader reader(list);
  json::sax_parse(text.begin(), text.end(), &reader);
  return reader.take();
}

}  // namespace

Committed committed_from_json(std::string_view text) {
  std::vector<Committed> events = read(text, false);
  return std::move(events.front());  // a complete parse of one object ended it
}

std::vector<Committed> committed_list_from_json(std::string_view text) { return read(text, true); }

}  // namespace act::store_rows
