#pragma once
// pg_act client library: the typed store over the act SQL functions.
#include "act/errors.hpp"
#include "act/event.hpp"
#include "act/pool.hpp"
#include "act/store.hpp"
