#include "relations.hpp"

#include <cstring>

extern "C" {
#include "utils/inval.h"
}

namespace act::pg {
namespace {

struct CachedRelation {
  const char* name;  // a string literal of the caller's
  Oid oid;
};

// A handful of names: a linear search beats hashing.
constexpr int kCapacity = 16;
CachedRelation g_cache[kCapacity];
int g_cached = 0;
bool g_callback_registered = false;

void ForgetOnInvalidation(Datum, Oid relation) {
  if (relation == InvalidOid) {
    g_cached = 0;
    return;
  }
  for (int i = 0; i < g_cached; ++i) {
    if (g_cache[i].oid == relation) {
      g_cached = 0;
      return;
    }
  }
}

// InvalidOid when act.<name> does not exist (not remembered: it may be created).
Oid FindActRelation(const char* name) {
  for (int i = 0; i < g_cached; ++i)
    if (g_cache[i].name == name || strcmp(g_cache[i].name, name) == 0) return g_cache[i].oid;
  if (!g_callback_registered) {
    CacheRegisterRelcacheCallback(ForgetOnInvalidation, Datum(0));
    g_callback_registered = true;
  }
  const Oid relation = get_relname_relid(name, get_namespace_oid("act", false));
  if (OidIsValid(relation) && g_cached < kCapacity) g_cache[g_cached++] = CachedRelation{name, relation};
  return relation;
}

}  // namespace

Oid ActRelation(const char* name) {
  const Oid relation = FindActRelation(name);
  if (!OidIsValid(relation)) elog(ERROR, "pg_act: relation act.%s is missing", name);
  return relation;
}

bool ActRelationExists(const char* name) {
  return Guard([name] { return OidIsValid(FindActRelation(name)); });
}

int ColumnNumber(Relation table, const char* name) {
  const TupleDesc desc = RelationGetDescr(table);
  for (int i = 0; i < desc->natts; ++i) {
    const Form_pg_attribute column = TupleDescAttr(desc, i);
    if (!column->attisdropped && strcmp(NameStr(column->attname), name) == 0) return i + 1;
  }
  return Guard([name]() -> int { elog(ERROR, "pg_act: column %s is missing", name); });
}

}  // namespace act::pg
