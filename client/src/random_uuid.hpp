#pragma once
// Random ids: correlation ids, lease holder ids, correlator ids.
#include <string>

namespace act::detail {

// A random RFC 4122 version 4 id.
std::string random_uuid();

}  // namespace act::detail
