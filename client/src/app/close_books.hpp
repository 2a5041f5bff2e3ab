#pragma once
// The close cycle behind App::close, also run by autoclose handlers.
#include <vector>

#include "act/close.hpp"

namespace act::app_detail {

struct AppCore;

CloseResult close_books(AppCore& core, const std::vector<CloseTarget>& targets);
// std::invalid_argument for a target without a stream, restart with
// before, or a stream named twice: before anything is closed.
void check_targets(const std::vector<CloseTarget>& targets);

}  // namespace act::app_detail
