-- Monitoring (docs/reference.md, "Monitoring": act.status, act.lag,
-- act.metrics over act._pending): what is stuck, how far behind each
-- consumer is, who holds what. Every figure comes from the work set (partial
-- indexes: rows with work, blocked rows) and a few index lookups per row:
-- never a scan of the log or of every subscription.

-- Blocked rows, for the counts; blocked changes rarely, so claims and acks
-- stay HOT updates (the work-set predicates already read the column).
CREATE INDEX subscriptions_blocked_ix ON act.subscription_rows (stream) WHERE blocked;
