#pragma once
// The page's files (assets/), embedded into actctl at build time
// (embed_assets.cmake writes the definition): nothing is read from disk or
// fetched at run time.
#include <string_view>

namespace actctl::inspector {

struct Asset {
  std::string_view name;  // its file name under assets/
  std::string_view content_type;
  std::string_view body;
};

// None for a name that is not an asset.
const Asset* FindAsset(std::string_view name);

}  // namespace actctl::inspector
