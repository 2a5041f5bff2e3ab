#pragma once
// Who may read the `pii` sidecar: roles with SELECT on act.events.pii
// (act_pii_reader, the owner). Reading functions run with the owner's rights,
// so they ask about the role that called them.
namespace act::pg {

// True when the session's role (the one SET ROLE chose, or the login) may
// read act.events.pii. A SECURITY DEFINER function of the application's
// that calls act.query is judged by its caller, never by its owner: the
// check can only hide more, never show more.
bool CallerMayReadPii();

}  // namespace act::pg
