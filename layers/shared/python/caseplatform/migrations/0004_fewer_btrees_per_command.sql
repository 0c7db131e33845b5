-- Fewer b-trees written by each command (every b-tree a write touches is at least one more page in
-- the write-ahead log at commit):
--   * idx_hitl_events_case_created is dropped: a case's events are found through
--     UNIQUE (case_id, request_id), whose first column is case_id; a case has a handful of events,
--     sorted in memory. (The store's per-case subqueries name that index's column, `+event_type`
--     keeps the planner off the by-type index.)
--   * idx_hitl_state_escalation_due only holds the cases that have an escalation due (the only rows
--     the escalation sweep asks for), so opening or deciding a case without one does not touch it.
--   * hitl_state becomes a WITHOUT ROWID table keyed by case_id: one b-tree for the row instead of a
--     rowid table plus its primary-key index. Nothing references hitl_state, so it is rebuilt in
--     place; every row is copied unchanged.

DROP INDEX IF EXISTS idx_hitl_events_case_created;

CREATE TABLE hitl_state_v2 (
    case_id                      TEXT PRIMARY KEY REFERENCES hitl_cases (case_id) ON DELETE RESTRICT,
    current_state                TEXT NOT NULL CHECK (current_state IN ('pending','needs_clarification','approved','rejected')),
    active_terminal_event_id     TEXT REFERENCES hitl_events (event_id) ON DELETE RESTRICT,
    active_decision_outcome      TEXT CHECK (active_decision_outcome IS NULL OR active_decision_outcome IN ('approved','rejected')),
    needs_clarification_since_ms INTEGER,
    escalation_due_at_ms         INTEGER,
    escalated_at_ms              INTEGER,
    escalation_target            TEXT,
    updated_at_ms                INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO hitl_state_v2 (case_id, current_state, active_terminal_event_id, active_decision_outcome,
    needs_clarification_since_ms, escalation_due_at_ms, escalated_at_ms, escalation_target, updated_at_ms)
    SELECT case_id, current_state, active_terminal_event_id, active_decision_outcome,
    needs_clarification_since_ms, escalation_due_at_ms, escalated_at_ms, escalation_target, updated_at_ms
    FROM hitl_state;
DROP TABLE hitl_state;
ALTER TABLE hitl_state_v2 RENAME TO hitl_state;

CREATE INDEX idx_hitl_state_current_updated ON hitl_state (current_state, updated_at_ms DESC);
CREATE INDEX idx_hitl_state_escalation_due ON hitl_state (escalation_due_at_ms)
    WHERE escalation_due_at_ms IS NOT NULL;
