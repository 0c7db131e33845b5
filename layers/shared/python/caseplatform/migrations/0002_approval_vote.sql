-- Multi-approver review: an `approval_vote` event records one reviewer's approval of a case whose
-- adapter requires more than one distinct approver (x-hitl `required_approvers`). It does not change
-- the case's state; the approval that completes the count is an ordinary `decision_recorded`.
--
-- SQLite cannot alter a CHECK constraint, so hitl_events is rebuilt with the wider event_type list.
-- Foreign keys stay on: hitl_state (which references hitl_events) is set aside and restored, so
-- dropping the old table orphans nothing. Every row is copied unchanged (event_json included).

CREATE TEMP TABLE hitl_state_saved AS SELECT * FROM hitl_state;
DELETE FROM hitl_state;

CREATE TABLE hitl_events_v2 (
    event_id            TEXT PRIMARY KEY CHECK (event_id LIKE 'HEV-%'),
    case_id             TEXT NOT NULL REFERENCES hitl_cases (case_id) ON DELETE RESTRICT,
    event_type          TEXT NOT NULL CHECK (event_type IN (
                            'submitted','needs_clarification','clarification_provided',
                            'decision_recorded','decision_superseded','escalated','approval_vote')),
    decision_outcome    TEXT CHECK (decision_outcome IS NULL OR decision_outcome IN ('approved','rejected')),
    notes               TEXT NOT NULL,
    question            TEXT,
    answer              TEXT,
    actor_kind          TEXT NOT NULL CHECK (actor_kind IN ('operator','agent','system')),
    actor_name          TEXT NOT NULL,
    actor_role          TEXT NOT NULL,
    actor_id            TEXT,
    actor_team          TEXT,
    supersedes_event_id TEXT REFERENCES hitl_events (event_id) ON DELETE RESTRICT,
    request_id          TEXT,
    event_json          TEXT NOT NULL CHECK (json_valid(event_json)),
    created_at_ms       INTEGER NOT NULL,
    CHECK (event_type <> 'needs_clarification' OR length(trim(coalesce(question, ''))) > 0),
    CHECK (event_type <> 'clarification_provided' OR length(trim(coalesce(answer, ''))) > 0),
    CHECK (event_type <> 'decision_recorded' OR decision_outcome IS NOT NULL),
    CHECK (decision_outcome IS NULL OR event_type IN ('decision_recorded','decision_superseded')),
    CHECK (event_type <> 'approval_vote' OR actor_kind = 'operator'),
    UNIQUE (case_id, request_id)
);
INSERT INTO hitl_events_v2 SELECT * FROM hitl_events ORDER BY rowid;
DROP TABLE hitl_events;
ALTER TABLE hitl_events_v2 RENAME TO hitl_events;

CREATE INDEX idx_hitl_events_case_created ON hitl_events (case_id, created_at_ms DESC);
CREATE INDEX idx_hitl_events_type_created ON hitl_events (event_type, created_at_ms DESC);
CREATE INDEX idx_hitl_events_decision_created ON hitl_events (decision_outcome, created_at_ms DESC);
CREATE INDEX idx_hitl_events_request_id ON hitl_events (request_id);
CREATE INDEX idx_hitl_events_principal_created ON hitl_events (coalesce(actor_id, actor_name), created_at_ms DESC);
CREATE UNIQUE INDEX ux_hitl_events_first_terminal ON hitl_events (case_id) WHERE event_type = 'decision_recorded';
CREATE UNIQUE INDEX ux_hitl_events_submit_request ON hitl_events (request_id)
    WHERE event_type = 'submitted' AND request_id IS NOT NULL;

INSERT INTO hitl_state SELECT * FROM hitl_state_saved;
DROP TABLE hitl_state_saved;
