-- Changes requested: a reviewer's edit without a payload sends a case back to its submitter
-- (state `changes_requested`, event `changes_requested`), who revises it (event `resubmitted`, back to
-- `pending`); feedback left through the feedback tool is an event of its own (`feedback_added`). The
-- case row counts the revisions (`resubmissions`, 0 for every case before).
--
-- SQLite cannot alter a CHECK constraint, so hitl_cases and hitl_events are rebuilt as migration 0006
-- rebuilt them: every row keeps its rowid, what points at the moved rows is set aside and put back,
-- and the indexes are created again as they were.

CREATE TEMP TABLE hitl_refs_saved AS SELECT case_id, ref_type, ref_key, ref_value FROM hitl_case_refs;
DELETE FROM hitl_case_refs;
CREATE TEMP TABLE hitl_terminal_saved (case_id TEXT PRIMARY KEY, active_terminal_event_id TEXT NOT NULL);
INSERT INTO hitl_terminal_saved (case_id, active_terminal_event_id)
    SELECT case_id, active_terminal_event_id FROM hitl_cases WHERE active_terminal_event_id IS NOT NULL;
UPDATE hitl_cases SET active_terminal_event_id = NULL WHERE active_terminal_event_id IS NOT NULL;

CREATE TABLE hitl_cases_v7 (
    case_id             TEXT PRIMARY KEY CHECK (case_id LIKE 'HITL-%'),
    schema_version      INTEGER NOT NULL CHECK (schema_version >= 1),
    adapter_id          TEXT NOT NULL,
    case_type           TEXT NOT NULL,
    title               TEXT NOT NULL,
    summary             TEXT NOT NULL,
    payload_json        TEXT NOT NULL CHECK (json_valid(payload_json)),
    payload_hash_sha256 TEXT NOT NULL CHECK (length(payload_hash_sha256) = 64),
    submitter_name      TEXT NOT NULL,
    submitter_role      TEXT NOT NULL,
    submitter_id        TEXT,
    submitter_team      TEXT,
    priority            TEXT NOT NULL DEFAULT 'normal'
                            CHECK (priority = 'low' OR priority = 'normal' OR priority = 'high' OR priority = 'critical'),
    confidence          TEXT CHECK (confidence IS NULL
                            OR confidence = 'high' OR confidence = 'medium' OR confidence = 'low'),
    created_at_ms       INTEGER NOT NULL,
    updated_at_ms       INTEGER NOT NULL,
    current_state       TEXT CHECK (current_state IS NULL
                            OR current_state = 'pending' OR current_state = 'needs_clarification'
                            OR current_state = 'approved' OR current_state = 'rejected'
                            OR current_state = 'changes_requested'),
    state_updated_at_ms INTEGER CHECK ((current_state IS NULL) = (state_updated_at_ms IS NULL)),
    active_terminal_event_id TEXT REFERENCES hitl_events (event_id) ON DELETE RESTRICT,
    active_decision_outcome  TEXT
                            CHECK (active_decision_outcome IS NULL OR active_decision_outcome IN ('approved','rejected')),
    needs_clarification_since_ms INTEGER,
    escalation_due_at_ms         INTEGER,
    escalated_at_ms              INTEGER,
    escalation_target            TEXT,
    resubmissions                INTEGER DEFAULT 0 CHECK (resubmissions IS NULL OR resubmissions >= 0)
);
INSERT INTO hitl_cases_v7 (rowid, case_id, schema_version, adapter_id, case_type, title, summary, payload_json,
    payload_hash_sha256, submitter_name, submitter_role, submitter_id, submitter_team, priority, confidence,
    created_at_ms, updated_at_ms, current_state, state_updated_at_ms, active_terminal_event_id,
    active_decision_outcome, needs_clarification_since_ms, escalation_due_at_ms, escalated_at_ms,
    escalation_target)
    SELECT rowid, case_id, schema_version, adapter_id, case_type, title, summary, payload_json,
    payload_hash_sha256, submitter_name, submitter_role, submitter_id, submitter_team, priority, confidence,
    created_at_ms, updated_at_ms, current_state, state_updated_at_ms, active_terminal_event_id,
    active_decision_outcome, needs_clarification_since_ms, escalation_due_at_ms, escalated_at_ms,
    escalation_target
    FROM hitl_cases ORDER BY rowid;
CREATE TEMP TABLE hitl_events_saved AS SELECT rowid AS saved_rowid, * FROM hitl_events;
UPDATE hitl_events SET supersedes_event_id = NULL WHERE supersedes_event_id IS NOT NULL;
-- Dropping a table deletes its rows first, and each deleted event is looked up in every column that
-- references it (all NULL by now): indexed for that, or the drop takes time quadratic in the rows.
CREATE INDEX hitl_cases_terminal_0007 ON hitl_cases (active_terminal_event_id);
CREATE INDEX hitl_cases_v7_terminal_0007 ON hitl_cases_v7 (active_terminal_event_id);
CREATE INDEX hitl_events_supersedes_0007 ON hitl_events (supersedes_event_id);
DROP TABLE hitl_events;
DROP INDEX hitl_cases_v7_terminal_0007;
DROP TABLE hitl_cases;
ALTER TABLE hitl_cases_v7 RENAME TO hitl_cases;

CREATE TABLE hitl_events (
    event_id            TEXT PRIMARY KEY CHECK (event_id LIKE 'HEV-%'),
    case_id             TEXT NOT NULL REFERENCES hitl_cases (case_id) ON DELETE RESTRICT,
    event_type          TEXT NOT NULL CHECK (event_type = 'submitted' OR event_type = 'needs_clarification'
                            OR event_type = 'clarification_provided' OR event_type = 'decision_recorded'
                            OR event_type = 'decision_superseded' OR event_type = 'escalated'
                            OR event_type = 'approval_vote' OR event_type = 'changes_requested'
                            OR event_type = 'resubmitted' OR event_type = 'feedback_added'),
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
INSERT INTO hitl_case_refs (case_id, ref_type, ref_key, ref_value)
    SELECT case_id, ref_type, ref_key, ref_value FROM hitl_refs_saved;
DROP TABLE hitl_refs_saved;

CREATE INDEX idx_hitl_cases_created ON hitl_cases (created_at_ms, case_id);
CREATE INDEX idx_hitl_cases_adapter_created ON hitl_cases (adapter_id, created_at_ms, case_id);
CREATE INDEX idx_hitl_cases_priority_created ON hitl_cases (priority, created_at_ms, case_id);
CREATE INDEX idx_hitl_cases_state_created ON hitl_cases (current_state, created_at_ms, case_id);
CREATE INDEX idx_hitl_cases_escalation_due ON hitl_cases (escalation_due_at_ms, case_id)
    WHERE escalation_due_at_ms IS NOT NULL;
CREATE INDEX idx_hitl_events_type_created ON hitl_events (event_type, created_at_ms, event_id);
CREATE INDEX idx_hitl_events_principal_created ON hitl_events (coalesce(actor_id, actor_name), created_at_ms, event_id);
-- First terminal decision wins: at most one decision_recorded event per case.
CREATE UNIQUE INDEX ux_hitl_events_first_terminal ON hitl_events (case_id) WHERE event_type = 'decision_recorded';
-- submit_case has no case_id yet, so its request_id is unique across all submissions.
CREATE UNIQUE INDEX ux_hitl_events_submit_request ON hitl_events (request_id)
    WHERE event_type = 'submitted' AND request_id IS NOT NULL;

-- Signed HTTP callbacks an agent registered for its case (caseplatform.notifications): where the
-- case's notices are POSTed and the secret that signs them.
CREATE TABLE hitl_callbacks (
    registration_id TEXT PRIMARY KEY,
    case_id         TEXT NOT NULL REFERENCES hitl_cases (case_id) ON DELETE RESTRICT,
    url             TEXT NOT NULL,
    secret          TEXT NOT NULL,
    created_at_ms   INTEGER NOT NULL
);
CREATE INDEX idx_hitl_callbacks_case ON hitl_callbacks (case_id);
