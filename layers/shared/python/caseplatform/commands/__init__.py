"""The write side of the platform: submit a case, then act on it (clarification asked and answered,
decision, approval, escalation), one module per command.

Every command on an existing case goes through one pipeline (`caseplatform.commands.pipeline`):
    accept     check the envelope and the actor, hash the request's intent, redact the notes;
    decide     the store reads the case snapshot and calls the command's pure decision
               (`caseplatform.decisions`), once per attempt;
    append     the store writes the event and the projection atomically (or returns the earlier
               event of the same request_id, which must carry the same intent);
    notify     the listeners hear about the event.
A decision refused as ALREADY_TERMINAL is answered with the decision that won.
"""

from __future__ import annotations

from caseplatform.commands.approve import Approval
from caseplatform.commands.clarify import ClarificationCommands
from caseplatform.commands.decide import DecisionCommands
from caseplatform.commands.escalate import EscalationCommand
from caseplatform.commands.redact import RedactionCommand
from caseplatform.commands.submit import SubmitCommand


class CaseCommands(
    SubmitCommand, ClarificationCommands, DecisionCommands, EscalationCommand, RedactionCommand
):
    """Every command, over one pipeline (constructor: `CommandPipeline`)."""


__all__ = ["Approval", "CaseCommands"]
