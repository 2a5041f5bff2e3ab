#pragma once
#include <string>
#include <string_view>

namespace act::core {

// "<text>" as error messages show names. Long names are cut (on a UTF-8
// boundary) so an error about a 10 MB name does not become a 10 MB message.
std::string Quoted(std::string_view text, std::size_t max_bytes = 200);

}  // namespace act::core
