#include "pii_access.hpp"

#include "error_bridge.hpp"
#include "relations.hpp"

extern "C" {
#include "utils/acl.h"
}

namespace act::pg {

bool CallerMayReadPii() {
  return Guard([] {
    const Oid events = ActRelation("events");
    const Oid role = GetOuterUserId();
    if (pg_class_aclcheck(events, role, ACL_SELECT) == ACLCHECK_OK) return true;
    const AttrNumber pii = get_attnum(events, "pii");
    return pii != InvalidAttrNumber && pg_attribute_aclcheck(events, pii, role, ACL_SELECT) == ACLCHECK_OK;
  });
}

}  // namespace act::pg
