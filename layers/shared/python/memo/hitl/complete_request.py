"""Whether a message is a complete request on its own, as the rule planner reads it: while a
question is open, such a message is a new request (switch intent), never the answer."""

from __future__ import annotations

from datetime import datetime

from memo.planner.base import Planner, PlannerInput
from memo.planner.match import GUESS, REFERENTIAL, SHOWN_ONLY
from memo.text.language import Language


def is_complete_request(
    text: str,
    *,
    now: datetime,
    timezone: str,
    language: Language,
    allow_missing: bool = False,
    allow_guess: bool = False,
    rules: Planner,
) -> bool:
    """Whether `text` is a complete request on its own: the rule planner reads it as an operation
    (or a meta request) with confidence, a plan and no missing field. Used while a question is open:
    such a message is a new request (switch_intent), never the answer. `allow_missing`: a request
    that still lacks a detail (a time) counts too (the interpreter's reading of an approval reply);
    `allow_guess`: so does one the planner only guesses at (to a yes/no question)."""
    if not text.strip():
        return False
    result = rules.plan(PlannerInput(message=text, now=now, timezone=timezone, language=language))
    output = result.output
    return (
        output.intent_type in ("operation", "meta")
        and output.confidence >= (GUESS if allow_guess else REFERENTIAL)
        and "intent_unclear" not in output.missing_fields
        and (allow_missing or not output.missing_fields)
        and bool(output.plan)
    )


def only_looks(text: str, *, now: datetime, timezone: str, language: Language, rules: Planner) -> bool:
    """Whether `text` asks only to be shown something ("what reminders do I have?", "show my
    shopping list", "מה יש לי מחר?"): a plan whose every step reads (`SHOWN_ONLY`). Asked while a
    question is open, it is answered and the question stays open."""
    if not text.strip():
        return False
    output = rules.plan(PlannerInput(message=text, now=now, timezone=timezone, language=language)).output
    return (
        output.intent_type == "operation"
        and output.confidence >= REFERENTIAL
        and not output.missing_fields
        and bool(output.plan)
        and all(step.action in SHOWN_ONLY for step in output.plan)
    )


def default_rules() -> Planner:
    """The rule planner for a caller that passes none (tests, tools); the webhook's composition root
    (`memo.wiring.webhook`) builds one and passes it down instead."""
    from memo.planner.rules import RulePlanner

    return RulePlanner()
