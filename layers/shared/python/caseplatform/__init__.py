"""The HITL case platform: a domain-agnostic human-in-the-loop case queue.

Case envelope + append-only events + a state projection written in the same transaction; adapter
JSON-schema registry with versions and read-time upcasting; a fixed transition matrix, stable error
codes, first-terminal-wins and request_id idempotency; SQLite (default) and DynamoDB stores behind
one interface; an MCP server (`hitl-mcp`) and a CLI (`hitl`). It never imports Memo's own code.

Start at `caseplatform.service.CaseService`; docs/case-platform.md describes the whole platform.
"""
