#pragma once
// pg_act client library: the typed store over the act SQL functions, and the
// application layer (states, actions, invariants, cache, snapshots).
#include "act/app.hpp"
#include "act/errors.hpp"
#include "act/event.hpp"
#include "act/events.hpp"
#include "act/pool.hpp"
#include "act/snapshot.hpp"
#include "act/state.hpp"
#include "act/store.hpp"
#include "act/target.hpp"
