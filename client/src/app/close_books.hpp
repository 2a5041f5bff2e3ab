#pragma once
// The close cycle behind App::close, also run by autoclose handlers.
#include <vector>

#include "act/close.hpp"

namespace act::app_detail {

struct AppCore;

CloseResult close_books(AppCore& core, const std::vector<CloseTarget>& targets);

}  // namespace act::app_detail
