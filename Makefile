# pg_act: PGXS builds the extension (.so, control, SQL); CMake builds core/,
# the client library, tools, tests and benchmarks. `make demo` and `make test`
# do all set-up themselves (see README.md); `make check` is the quick loop
# (CONTRIBUTING.md); `make stress` runs the long stress scenarios.

EXTENSION  = pg_act
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(EXTENSION).control)
MODULE_big = $(EXTENSION)
# extension/ is grouped by concern: plumbing/ (the error bridge, SPI, scans,
# arguments), log/ (commit, heads, horizon, reads), workset/ (subscriptions,
# marks, claims, leases), merkle/ (the verifiable log: tree storage, sealer,
# proofs, checkpoints), partitions/ (partitioned mode: the hosted partition).
EXTENSION_DIRS = extension/plumbing extension/log extension/workset extension/merkle extension/partitions
OBJS       = $(patsubst %.cpp,%.o,$(sort $(foreach dir,$(EXTENSION_DIRS),$(wildcard $(dir)/*.cpp))))
# SQL scripts (scripts/build-sql.sh): the current version's install script
# is built from sql/src and the function declarations it includes (sql/api/,
# one file per function); each unreleased upgrade script from its source in
# sql/upgrades/, which includes the declarations it creates or replaces. They
# are build outputs (sql/built/). Released scripts are kept in sql/ as shipped
# (DATA): the first version's install script, and upgrade scripts leading
# from it to every later one (CREATE EXTENSION ... VERSION takes that path too).
SQL_SOURCES  = $(sort $(wildcard sql/src/*.sql))
SQL_API      = $(wildcard sql/api/*.sql)
SQL_UPGRADES = $(wildcard sql/upgrades/*.sql)
DATA_built = sql/built/$(EXTENSION)--$(EXTVERSION).sql \
             $(patsubst sql/upgrades/%,sql/built/$(EXTENSION)--%,$(SQL_UPGRADES))
DATA       = $(filter-out $(addprefix sql/,$(notdir $(DATA_built))),$(wildcard sql/$(EXTENSION)--*.sql))
# The copies of the router's script and the client's calls that make checks
# against them (below).
EXTRA_CLEAN = sql/built/pg_act_router.sql sql/built/client_calls

BUILD_DIR ?= build
CORE_LIB   = $(BUILD_DIR)/libact_core.a

PG_CONFIG ?= pg_config
SERVER_INCLUDE := $(shell $(PG_CONFIG) --includedir-server)
# Postgres headers as system headers: our warnings stay on, theirs stay quiet.
PG_CPPFLAGS = -isystem $(SERVER_INCLUDE) -Icore/include $(addprefix -I,$(EXTENSION_DIRS)) -I$(BUILD_DIR)/embedded_sql
# One warning policy: the flags of warnings.flags, which CMake reads for core
# and the client too.
ACT_WARNINGS := $(shell grep '^-' warnings.flags)
PG_CXXFLAGS = -std=c++20 $(ACT_WARNINGS) $(if $(ACT_WERROR),-Werror)
# PGXS links with gcc: name the C++ runtime and OpenSSL explicitly.
SHLIB_LINK = $(CORE_LIB) -lcrypto -lstdc++
# No JIT bitcode: Debian's clang would compile our C++ a second time for nothing.
override with_llvm = no

# PGXS's own `check` only says that it is not supported. Ours, the quick loop
# (scripts/check.sh), builds through makes of its own: with `check` among the
# goals PGXS stays out, and without it ours stays out (make would warn about
# two recipes otherwise). `make check` runs alone; SUITES says which suites
# (scripts/check.sh says how to name them), default all.
ifeq ($(filter check,$(MAKECMDGOALS)),)
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
$(shlib): $(CORE_LIB)
else ifneq ($(MAKECMDGOALS),check)
$(error make check runs alone: make check SUITES="...")
else
check: deps
	@scripts/check.sh $(SUITES)
endif

sql/built/$(EXTENSION)--$(EXTVERSION).sql: $(SQL_SOURCES) $(SQL_API) $(EXTENSION).control scripts/build-sql.sh scripts/lib/expand-declaration.awk
	scripts/build-sql.sh $@ $(SQL_SOURCES)
sql/built/$(EXTENSION)--%.sql: sql/upgrades/%.sql $(SQL_API) $(SQL_SOURCES) scripts/build-sql.sh scripts/lib/expand-declaration.awk
	scripts/build-sql.sh $@ $<

# The router's script is kept in git ready to run (docs/scale-out.md); its
# forwarders are written from the declarations (scripts/build-router.sh):
# `make router` rewrites them, and the build fails while they are stale.
ROUTER_SCRIPT = sql/router/pg_act_router.sql
all: sql/built/pg_act_router.sql
sql/built/pg_act_router.sql: $(ROUTER_SCRIPT) $(SQL_API) scripts/build-router.sh scripts/lib/declarations.sh
	scripts/build-router.sh $(ROUTER_SCRIPT) $@
	@cmp -s $@ $(ROUTER_SCRIPT) || { rm -f $@; echo "$(ROUTER_SCRIPT) is stale: run make router" >&2; exit 1; }
router:
	scripts/build-router.sh $(ROUTER_SCRIPT) $(ROUTER_SCRIPT)

# The same for the client's calls of the functions (scripts/build-client-calls.sh):
# each argument sent with its declared type; `make client-calls` rewrites them.
CLIENT_CALLS = client/src/store/statements.hpp client/src/store/log_statements.hpp
CLIENT_CALLS_CHECKED = $(patsubst client/src/store/%,sql/built/client_calls/%,$(CLIENT_CALLS))
all: $(CLIENT_CALLS_CHECKED)
sql/built/client_calls/%.hpp: client/src/store/%.hpp $(SQL_API) scripts/build-client-calls.sh scripts/lib/declarations.sh
	@mkdir -p $(@D)
	scripts/build-client-calls.sh $< $@
	@cmp -s $@ $< || { rm -f $@; echo "$< is stale: run make client-calls" >&2; exit 1; }
client-calls:
	for calls in $(CLIENT_CALLS); do scripts/build-client-calls.sh $$calls $$calls || exit 1; done

# The SQL an extension file runs is in FILE.sql beside it, embedded at build
# time as the header FILE_sql.hpp (scripts/embed-sql.sh).
EMBEDDED_SQL = $(sort $(foreach dir,$(EXTENSION_DIRS),$(wildcard $(dir)/*.sql)))
EMBEDDED_SQL_HEADERS = $(patsubst extension/%.sql,$(BUILD_DIR)/embedded_sql/%_sql.hpp,$(EMBEDDED_SQL))
$(BUILD_DIR)/embedded_sql/%_sql.hpp: extension/%.sql scripts/embed-sql.sh
	scripts/embed-sql.sh $< $@

$(OBJS): $(foreach dir,$(EXTENSION_DIRS),$(wildcard $(dir)/*.hpp)) $(wildcard core/include/act/core/*.hpp) \
         $(EMBEDDED_SQL_HEADERS) warnings.flags

# Unset, CMake keeps its cached choice: flipping it would rebuild everything.
CMAKE_WERROR = $(if $(ACT_WERROR),-DACT_WERROR=ON)
# CMake's build is a make of its own that takes -j2. Under a parallel make
# (make -j, or PGXS's build of the .so that needs the core library) it would
# inherit our jobserver, drop it and warn "-j2 forced in submake": it runs
# outside ours instead.
CMAKE_BUILD = MAKEFLAGS= MFLAGS= cmake --build $(BUILD_DIR) -j2

.PHONY: core deps demo check test stress bench bench-check bench-baseline bench-plots cmake-build router client-calls
$(CORE_LIB): core
core:
	cmake -S . -B $(BUILD_DIR) $(CMAKE_WERROR) >/dev/null
	$(CMAKE_BUILD) --target act_core

cmake-build:
	cmake -S . -B $(BUILD_DIR) $(CMAKE_WERROR) >/dev/null
	$(CMAKE_BUILD)

# The scripts say what they do, one line per stage: make need not echo them.
deps:
	@scripts/deps.sh

demo: deps
	@scripts/demo.sh

test: deps
	@scripts/test.sh

stress: deps
	@scripts/stress.sh

# Benchmarks: not part of test. BENCH_QUICK=1 for short runs.
bench: deps
	@bench/run.sh

bench-check: deps
	@bench/check.sh

bench-baseline: deps
	@bench/check.sh --write-baseline

# The sweeps of the last make bench as docs/bench-*.png (PERFORMANCE.md).
bench-plots: deps
	@bench/plot.sh
