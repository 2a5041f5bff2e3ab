#pragma once
// pg_act client library: the typed store over the act SQL functions, and the
// application layer (states, actions, invariants, cache, snapshots,
// reactions, projections, lanes and the drain workers).
#include "act/app.hpp"
#include "act/audit.hpp"
#include "act/drain.hpp"
#include "act/errors.hpp"
#include "act/event.hpp"
#include "act/events.hpp"
#include "act/log_store.hpp"
#include "act/monitor.hpp"
#include "act/observe.hpp"
#include "act/partitions.hpp"
#include "act/pool.hpp"
#include "act/projection.hpp"
#include "act/reaction.hpp"
#include "act/snapshot.hpp"
#include "act/sql.hpp"
#include "act/state.hpp"
#include "act/store.hpp"
#include "act/store_set.hpp"
#include "act/subscriptions.hpp"
#include "act/target.hpp"
