#pragma once
// Acknowledging leases, shared by act.ack and act.claim_events.
#include <vector>

#include "act/core/subscription_input.hpp"
#include "error_bridge.hpp"

namespace act::pg {

// Needs SPI. Refuses (22023) a watermark no read could have reached, then
// applies the acks all or nothing; entries whose holder lost the lease are
// dropped. Leaves the acknowledged rows without a `due` (stream, source, at,
// by, retry, lagging, lane) in SPI_tuptable.
// `what` names the argument in messages ("leases", "acks").
void ApplyAcks(const std::vector<core::LeaseEntry>& leases, const char* what = "leases");

}  // namespace act::pg
