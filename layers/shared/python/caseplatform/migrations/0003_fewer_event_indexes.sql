-- Two indexes of hitl_events that no query uses, dropped so each event written updates fewer
-- b-trees (and each write transaction dirties fewer pages):
--   idx_hitl_events_request_id        lookups by request_id go through UNIQUE (case_id, request_id)
--                                     or, for submissions, the partial ux_hitl_events_submit_request;
--   idx_hitl_events_decision_created  decisions by outcome are read by event type and time
--                                     (idx_hitl_events_type_created), the outcome filtered on the rows.
DROP INDEX IF EXISTS idx_hitl_events_request_id;
DROP INDEX IF EXISTS idx_hitl_events_decision_created;
