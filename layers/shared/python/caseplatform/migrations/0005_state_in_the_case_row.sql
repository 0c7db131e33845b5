-- The projection moves into the case row, and every time-ordered index is ascending with its
-- tie-breaker, so each command writes fewer b-trees (each b-tree a write touches is at least one
-- more page in the write-ahead log at commit):
--   * hitl_state's columns become columns of hitl_cases (state_updated_at_ms is the projection's
--     updated_at_ms; the envelope keeps its own updated_at_ms). A submission writes one row instead
--     of two and a decision updates the case row instead of a second table: hitl_state's b-tree and
--     its (current_state, updated_at_ms) index are gone. A case whose current_state is NULL has no
--     projection (what a missing hitl_state row was): the queries skip it, as the join did.
--   * The state index is (current_state, created_at_ms, case_id): list_cases by state walks it in the
--     listing's own order, so no sort; it is still the one index a decision moves.
--   * The time-ordered indexes are ascending and end with the listing's tie-breaker (case_id,
--     event_id), so `ORDER BY created_at_ms DESC, <id> DESC` walks them backwards with no sort.
--     A descending index puts every new row at its left edge, where a full page is split by
--     redistributing its neighbours (more pages per commit) instead of SQLite's cheap append split.
--   * hitl_case_refs becomes a WITHOUT ROWID table keyed by (case_id, ref_type, ref_key, ref_value):
--     one b-tree per ref instead of a rowid table plus its primary-key index. Its lookup index then
--     ends with case_id (a WITHOUT ROWID table's index carries the key), so cases_by_ref walks it in
--     case_id order, no sort. Nothing references hitl_case_refs; it is rebuilt in place.
-- Every row is copied unchanged; foreign keys stay on.

ALTER TABLE hitl_cases ADD COLUMN current_state TEXT
    CHECK (current_state IS NULL OR current_state IN ('pending','needs_clarification','approved','rejected'));
ALTER TABLE hitl_cases ADD COLUMN state_updated_at_ms INTEGER
    CHECK ((current_state IS NULL) = (state_updated_at_ms IS NULL));
ALTER TABLE hitl_cases ADD COLUMN active_terminal_event_id TEXT REFERENCES hitl_events (event_id) ON DELETE RESTRICT;
ALTER TABLE hitl_cases ADD COLUMN active_decision_outcome TEXT
    CHECK (active_decision_outcome IS NULL OR active_decision_outcome IN ('approved','rejected'));
ALTER TABLE hitl_cases ADD COLUMN needs_clarification_since_ms INTEGER;
ALTER TABLE hitl_cases ADD COLUMN escalation_due_at_ms INTEGER;
ALTER TABLE hitl_cases ADD COLUMN escalated_at_ms INTEGER;
ALTER TABLE hitl_cases ADD COLUMN escalation_target TEXT;

UPDATE hitl_cases SET (current_state, state_updated_at_ms, active_terminal_event_id, active_decision_outcome,
    needs_clarification_since_ms, escalation_due_at_ms, escalated_at_ms, escalation_target) =
    (SELECT s.current_state, s.updated_at_ms, s.active_terminal_event_id, s.active_decision_outcome,
     s.needs_clarification_since_ms, s.escalation_due_at_ms, s.escalated_at_ms, s.escalation_target
     FROM hitl_state s WHERE s.case_id = hitl_cases.case_id);
DROP TABLE hitl_state;

DROP INDEX IF EXISTS idx_hitl_cases_adapter_created;
DROP INDEX IF EXISTS idx_hitl_cases_priority_created;
DROP INDEX IF EXISTS idx_hitl_cases_created;
CREATE INDEX idx_hitl_cases_created ON hitl_cases (created_at_ms, case_id);
CREATE INDEX idx_hitl_cases_adapter_created ON hitl_cases (adapter_id, created_at_ms, case_id);
CREATE INDEX idx_hitl_cases_priority_created ON hitl_cases (priority, created_at_ms, case_id);
CREATE INDEX idx_hitl_cases_state_created ON hitl_cases (current_state, created_at_ms, case_id);
CREATE INDEX idx_hitl_cases_escalation_due ON hitl_cases (escalation_due_at_ms, case_id)
    WHERE escalation_due_at_ms IS NOT NULL;

DROP INDEX IF EXISTS idx_hitl_events_type_created;
DROP INDEX IF EXISTS idx_hitl_events_principal_created;
CREATE INDEX idx_hitl_events_type_created ON hitl_events (event_type, created_at_ms, event_id);
CREATE INDEX idx_hitl_events_principal_created ON hitl_events (coalesce(actor_id, actor_name), created_at_ms, event_id);


CREATE TABLE hitl_case_refs_v2 (
    case_id   TEXT NOT NULL REFERENCES hitl_cases (case_id) ON DELETE RESTRICT,
    ref_type  TEXT NOT NULL,
    ref_key   TEXT NOT NULL,
    ref_value TEXT NOT NULL,
    PRIMARY KEY (case_id, ref_type, ref_key, ref_value)
) WITHOUT ROWID;
INSERT INTO hitl_case_refs_v2 (case_id, ref_type, ref_key, ref_value)
    SELECT case_id, ref_type, ref_key, ref_value FROM hitl_case_refs;
DROP TABLE hitl_case_refs;
ALTER TABLE hitl_case_refs_v2 RENAME TO hitl_case_refs;
CREATE INDEX idx_hitl_case_refs_lookup ON hitl_case_refs (ref_type, ref_key, ref_value);
