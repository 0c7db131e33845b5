"""The HITL control plane (pure logic): gate (forward path), fast path, interpreter, resume, plan edits.

Nothing here touches AWS or imports `openai` at import time; the engine persists the pending
item and calls these functions. See `memo.hitl.gate` and `memo.hitl.resume` for the flow.
"""
