#pragma once
// The OIDs of the extension's relations (act.<name>), looked up by name once
// per backend: the commit path opens several on every call, and a catalog
// lookup each time costs more than the open. Any relcache invalidation of a
// cached relation (DROP EXTENSION, a rename) forgets them all.
#include "error_bridge.hpp"

namespace act::pg {

// The OID of act.<name>; an error if there is none. Call inside Guard.
Oid ActRelation(const char* name);

// Whether act.<name> exists: for a relation a later version added, which the
// schema of an older version (before ALTER EXTENSION UPDATE) lacks.
bool ActRelationExists(const char* name);

// The attribute number of column `name` of an open table; an error if it has
// none. The table's descriptor is at hand: no catalog lookup.
int ColumnNumber(Relation table, const char* name);

}  // namespace act::pg
