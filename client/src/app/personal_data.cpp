#include "act/detail/personal_data.hpp"

namespace act::detail {

namespace {

// The fields an event's marks name; for a name no state marks (an older
// version, upcast later), the ones its sidecar holds.
std::vector<std::string> sensitive_fields_of(const Committed& event, const SensitiveFields& sensitive) {
  if (const auto declared = sensitive.find(event.name); declared != sensitive.end()) return declared->second;
  std::vector<std::string> fields;
  if (event.pii && event.pii->is_object())
    for (const auto& [field, value] : event.pii->items()) fields.push_back(field);
  return fields;
}

}  // namespace

Committed view_of(const Committed& event, const SensitiveFields& sensitive, Disclosure how) {
  Committed view = event;
  const bool sidecar = event.pii && event.pii->is_object();
  for (const std::string& field : sensitive_fields_of(event, sensitive)) {
    const bool in_sidecar = sidecar && event.pii->contains(field);
    const bool in_data = view.data.is_object() && view.data.contains(field);
    if (how == Disclosure::kStripped) {
      if (in_data) view.data.erase(field);
      continue;
    }
    if (!view.data.is_object()) continue;
    if (in_sidecar) {
      view.data[field] = how == Disclosure::kPlaintext ? event.pii->at(field) : nlohmann::json(kRedactedValue);
    } else if (in_data) {
      // Committed without a split (plain SQL): still personal data.
      if (how == Disclosure::kRedacted) view.data[field] = kRedactedValue;
    } else if (!sidecar) {
      view.data[field] = kShreddedValue;
    }
  }
  view.pii.reset();
  return view;
}

Message split_personal_data(Message message, const SensitiveFields& sensitive) {
  const auto declared = sensitive.find(message.name);
  if (declared == sensitive.end() || !message.data.is_object()) return message;
  nlohmann::json pii = message.pii.value_or(nlohmann::json::object());
  for (const std::string& field : declared->second) {
    if (const auto value = message.data.find(field); value != message.data.end()) {
      pii[field] = std::move(*value);
      message.data.erase(field);
    }
  }
  // Even empty: a sidecar tells a field never given from one forgotten (no sidecar).
  message.pii = std::move(pii);
  return message;
}

}  // namespace act::detail
