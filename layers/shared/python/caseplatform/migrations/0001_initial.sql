-- The case platform's tables. Two choices worth knowing:
--   * hitl_schema_registry is keyed by (adapter_id, schema_version), not adapter_id alone: the
--     registry keeps every version (historical records remain bound to their persisted schema
--     version), with a partial unique index allowing one active version per adapter.
--   * hitl_events.event_type also allows 'escalated': escalation side effects are explicit events,
--     not silent state edits.

CREATE TABLE hitl_cases (
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
    priority            TEXT NOT NULL DEFAULT 'normal' CHECK (priority IN ('low','normal','high','critical')),
    confidence          TEXT CHECK (confidence IS NULL OR confidence IN ('high','medium','low')),
    created_at_ms       INTEGER NOT NULL,
    updated_at_ms       INTEGER NOT NULL
);
CREATE INDEX idx_hitl_cases_adapter_created ON hitl_cases (adapter_id, created_at_ms DESC);
CREATE INDEX idx_hitl_cases_priority_created ON hitl_cases (priority, created_at_ms DESC);
CREATE INDEX idx_hitl_cases_created ON hitl_cases (created_at_ms DESC, case_id DESC);

CREATE TABLE hitl_events (
    event_id            TEXT PRIMARY KEY CHECK (event_id LIKE 'HEV-%'),
    case_id             TEXT NOT NULL REFERENCES hitl_cases (case_id) ON DELETE RESTRICT,
    event_type          TEXT NOT NULL CHECK (event_type IN (
                            'submitted','needs_clarification','clarification_provided',
                            'decision_recorded','decision_superseded','escalated')),
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
    UNIQUE (case_id, request_id)
);
CREATE INDEX idx_hitl_events_case_created ON hitl_events (case_id, created_at_ms DESC);
CREATE INDEX idx_hitl_events_type_created ON hitl_events (event_type, created_at_ms DESC);
CREATE INDEX idx_hitl_events_decision_created ON hitl_events (decision_outcome, created_at_ms DESC);
CREATE INDEX idx_hitl_events_request_id ON hitl_events (request_id);
CREATE INDEX idx_hitl_events_principal_created ON hitl_events (coalesce(actor_id, actor_name), created_at_ms DESC);
-- First terminal decision wins: at most one decision_recorded event per case.
CREATE UNIQUE INDEX ux_hitl_events_first_terminal ON hitl_events (case_id) WHERE event_type = 'decision_recorded';
-- submit_case has no case_id yet, so its request_id is unique across all submissions.
CREATE UNIQUE INDEX ux_hitl_events_submit_request ON hitl_events (request_id)
    WHERE event_type = 'submitted' AND request_id IS NOT NULL;

CREATE TABLE hitl_state (
    case_id                      TEXT PRIMARY KEY REFERENCES hitl_cases (case_id) ON DELETE RESTRICT,
    current_state                TEXT NOT NULL CHECK (current_state IN ('pending','needs_clarification','approved','rejected')),
    active_terminal_event_id     TEXT REFERENCES hitl_events (event_id) ON DELETE RESTRICT,
    active_decision_outcome      TEXT CHECK (active_decision_outcome IS NULL OR active_decision_outcome IN ('approved','rejected')),
    needs_clarification_since_ms INTEGER,
    escalation_due_at_ms         INTEGER,
    escalated_at_ms              INTEGER,
    escalation_target            TEXT,
    updated_at_ms                INTEGER NOT NULL
);
CREATE INDEX idx_hitl_state_current_updated ON hitl_state (current_state, updated_at_ms DESC);
CREATE INDEX idx_hitl_state_escalation_due ON hitl_state (escalation_due_at_ms);

CREATE TABLE hitl_schema_registry (
    adapter_id     TEXT NOT NULL,
    schema_version INTEGER NOT NULL CHECK (schema_version >= 1),
    schema_json    TEXT NOT NULL CHECK (json_valid(schema_json)),
    is_active      INTEGER NOT NULL CHECK (is_active IN (0, 1)),
    updated_at_ms  INTEGER NOT NULL,
    PRIMARY KEY (adapter_id, schema_version)
);
CREATE UNIQUE INDEX ux_hitl_schema_registry_active ON hitl_schema_registry (adapter_id) WHERE is_active = 1;

CREATE TABLE hitl_case_refs (
    case_id   TEXT NOT NULL REFERENCES hitl_cases (case_id) ON DELETE RESTRICT,
    ref_type  TEXT NOT NULL,
    ref_key   TEXT NOT NULL,
    ref_value TEXT NOT NULL,
    PRIMARY KEY (case_id, ref_type, ref_key, ref_value)
);
CREATE INDEX idx_hitl_case_refs_lookup ON hitl_case_refs (ref_type, ref_key, ref_value);
