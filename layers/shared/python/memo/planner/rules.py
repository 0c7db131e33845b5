"""The rule planner: deterministic English + Hebrew planning for Memo's core commands.

It is the planner with no OpenAI key and the fallback when the LLM planner fails. It never
imports `openai`. Matching is by patterns over verbs and nouns (not a fixed list of sentences),
dates and times are resolved in the user's timezone (`timeparse`), and referential follow-ups
("delete it", "move it to 6", "תמחק את זה") use the most recent `LatestAction`.

A message is cleaned of politeness ("could you please ..."), then the matchers of
`memo.planner.intents` are tried in the order of `MATCHERS`; the first that recognises the message
makes the plan. Then small talk, then intent_unclear (`memo.planner.match` sets the confidence).

Risk and approval: creates and reads are low risk, updates medium, deletes high; deleting
everything (reminders, notes, a whole list) is high risk and needs approval.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.intents import conversation, followups, lists, notes, reminders, unconnected
from memo.planner.lexicon import POLITE_EN, POLITE_HE, clean
from memo.planner.match import Match, to_result, unclear

Matcher = Callable[[str, PlannerInput], Match | PlannerResult | None]

#: The order matters: specific commands before general ones ("delete all reminders" before
#: "delete X", "clear the shopping list" before list edits), follow-ups and guesses last.
MATCHERS: tuple[Matcher, ...] = (
    conversation.chat,
    reminders.delete_all,
    lists.clear,
    reminders.show,
    reminders.create,
    reminders.rename,
    reminders.move,
    reminders.delete,
    lists.add,
    lists.remove,
    lists.show,
    notes.delete,
    notes.search,
    notes.save,
    unconnected.calendar,
    unconnected.email,
    followups.referential,
    followups.noun_less_delete,
    notes.recall,
)


class RulePlanner:
    """Deterministic planner (English + Hebrew). Stateless; safe to share."""

    def plan(self, inp: PlannerInput) -> PlannerResult:
        if inp.clarification:
            # Re-plan after intent_unclear: the answer alone first, then with the original request.
            first = self._plan_text(inp.clarification, inp)
            if "intent_unclear" not in first.output.missing_fields:
                return first
            return self._plan_text(f"{inp.message} {inp.clarification}", inp)
        return self._plan_text(inp.message, inp)

    def _plan_text(self, message: str, inp: PlannerInput) -> PlannerResult:
        text = clean(message)
        stripped = clean(re.sub(POLITE_HE, "", re.sub(POLITE_EN, "", text, flags=re.I)))
        for matcher in MATCHERS:
            found = matcher(stripped or text, inp)
            if isinstance(found, PlannerResult):
                return found
            if found is not None:
                return to_result(found)
        small_talk = conversation.small_talk(text)
        if small_talk is not None:
            return to_result(small_talk)
        return unclear(stripped or text)
