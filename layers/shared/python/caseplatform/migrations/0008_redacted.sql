-- Redaction: a `redacted` event names the payload fields blanked in the stored payload, the reason,
-- and the payload's hash after the redaction (the case row's payload_hash_sha256 stays the hash of
-- the payload as submitted). Retention records what it purges with the same event.
--
-- SQLite cannot alter a CHECK constraint, so hitl_events is rebuilt as migration 0007 rebuilt it:
-- every row keeps its rowid, what points at the moved rows is set aside and put back, and the
-- indexes on events are created again as they were.

CREATE TEMP TABLE hitl_terminal_saved (case_id TEXT PRIMARY KEY, active_terminal_event_id TEXT NOT NULL);
INSERT INTO hitl_terminal_saved (case_id, active_terminal_event_id)
    SELECT case_id, active_terminal_event_id FROM hitl_cases WHERE active_terminal_event_id IS NOT NULL;
UPDATE hitl_cases SET active_terminal_event_id = NULL WHERE active_terminal_event_id IS NOT NULL;

CREATE TEMP TABLE hitl_events_saved AS SELECT rowid AS saved_rowid, * FROM hitl_events;
UPDATE hitl_events SET supersedes_event_id = NULL WHERE supersedes_event_id IS NOT NULL;
-- Dropping a table deletes its rows first, and each deleted event is looked up in every column that
-- references it (all NULL by now): indexed for that, or the drop takes time quadratic in the rows.
CREATE INDEX hitl_cases_terminal_0008 ON hitl_cases (active_terminal_event_id);
CREATE INDEX hitl_events_supersedes_0008 ON hitl_events (supersedes_event_id);
DROP TABLE hitl_events;
DROP INDEX hitl_cases_terminal_0008;

CREATE TABLE hitl_events (
    event_id            TEXT PRIMARY KEY CHECK (event_id LIKE 'HEV-%'),
    case_id             TEXT NOT NULL REFERENCES hitl_cases (case_id) ON DELETE RESTRICT,
    event_type          TEXT NOT NULL CHECK (event_type = 'submitted' OR event_type = 'needs_clarification'
                            OR event_type = 'clarification_provided' OR event_type = 'decision_recorded'
                            OR event_type = 'decision_superseded' OR event_type = 'escalated'
                            OR event_type = 'approval_vote' OR event_type = 'changes_requested'
                            OR event_type = 'resubmitted' OR event_type = 'feedback_added'
                            OR event_type = 'redacted'),
    decision_outcome    TEXT CHECK (decision_outcome IS NULL OR decision_outcome IN ('approved','rejected')),
    notes               TEXT NOT NULL,
    question            TEXT,
    answer              TEXT,
    actor_kind          TEXT NOT NULL
                            CHECK (actor_kind = 'operator' OR actor_kind = 'agent' OR actor_kind = 'system'),
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
    CHECK (event_type <> 'changes_requested' OR actor_kind = 'operator'),
    UNIQUE (case_id, request_id)
);
INSERT INTO hitl_events (rowid, event_id, case_id, event_type, decision_outcome, notes, question, answer,
    actor_kind, actor_name, actor_role, actor_id, actor_team, supersedes_event_id, request_id, event_json,
    created_at_ms)
    SELECT saved_rowid, event_id, case_id, event_type, decision_outcome, notes, question, answer,
    actor_kind, actor_name, actor_role, actor_id, actor_team, supersedes_event_id, request_id, event_json,
    created_at_ms
    FROM hitl_events_saved ORDER BY saved_rowid;
DROP TABLE hitl_events_saved;

UPDATE hitl_cases SET active_terminal_event_id =
    (SELECT s.active_terminal_event_id FROM hitl_terminal_saved s WHERE s.case_id = hitl_cases.case_id)
    WHERE case_id IN (SELECT case_id FROM hitl_terminal_saved);
DROP TABLE hitl_terminal_saved;

CREATE INDEX idx_hitl_events_type_created ON hitl_events (event_type, created_at_ms, event_id);
CREATE INDEX idx_hitl_events_principal_created ON hitl_events (coalesce(actor_id, actor_name), created_at_ms, event_id);
-- First terminal decision wins: at most one decision_recorded event per case.
CREATE UNIQUE INDEX ux_hitl_events_first_terminal ON hitl_events (case_id) WHERE event_type = 'decision_recorded';
-- submit_case has no case_id yet, so its request_id is unique across all submissions.
CREATE UNIQUE INDEX ux_hitl_events_submit_request ON hitl_events (request_id)
    WHERE event_type = 'submitted' AND request_id IS NOT NULL;
