"""The rule planner: deterministic English + Hebrew planning for Memo's core commands.

It is the planner with no OpenAI key and the fallback when the LLM planner fails. It never
imports `openai`. Matching is by patterns over verbs and nouns (not a fixed list of sentences),
dates and times are resolved in the user's timezone (`timeparse`), and referential follow-ups
("delete it", "move it to 6", "תמחק את זה") use the most recent `LatestAction`.

How a message is read (`memo.planner.normalize` does the first two):
1. A message that is only small talk ("hi", "thanks!") is conversation.
2. Chat abbreviations and typos of keywords are fixed ("remnd me tmrw" -> "remind me tomorrow"); the
   greeting before the request and the thanks after it are set aside ("hi, ... thx").
3. The matchers of `memo.planner.intents` are tried in the order of `MATCHERS` on the request,
   cleaned of politeness ("could you please ..."); the first that recognises it makes the plan.
4. The requested action wins over incidental words: when the whole message is no reminder, note or
   list command (a meeting mentioned in passing, a pleasantry), each clause from a sentence break,
   a conjunction or an imperative ("remind me", "תזכיר לי") on is tried, and the first clause that
   is such a command makes the plan.
5. Several requests in one message become several plan steps: the command is split at "and",
   "also", a sentence break or the Hebrew "ו" when both sides are complete commands on their own
   ("remind me to X at 4pm and to Y at 10am" -> two reminders; "... and add flour to my shopping
   list" -> a reminder and a list edit). A side that would need a question keeps the message whole.
6. Then small talk, then intent_unclear (`memo.planner.match` sets the confidence).

Risk and approval: creates and reads are low risk, updates medium, deletes high; deleting
everything (reminders, notes, a whole list) is high risk and needs approval.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from memo.domain import NOTE_TEXT_REQUIRED, PlannerOutput, PlanStep, RiskLevel, RoutingSuggestion
from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.continuations import continuations
from memo.planner.intents import (
    ahead_of_it,
    asked_not_told,
    conversation,
    corrections,
    daily,
    followups,
    instead,
    kept_after_all,
    list_changes,
    list_moves,
    list_queries,
    list_removals,
    list_starts,
    lists,
    notes,
    notes_changes,
    nounless_deletes,
    remembered,
    remind_me_what,
    reminder_changes,
    reminder_deletes,
    reminder_from_to,
    reminder_hours,
    reminder_queries,
    reminder_skips,
    reminders,
    several_days,
    stated_plans,
    two_reminders,
    unconnected,
)
from memo.planner.lexicon import POLITE_EN, POLITE_HE, clean, has_hebrew
from memo.planner.match import GUESS, REFERENTIAL, Match, parse_when, to_result, unclear
from memo.planner.normalize import fix_typos, greeted_off, strip_pleasantries

Matcher = Callable[[str, PlannerInput], Match | PlannerResult | None]

#: The order matters: specific commands before general ones ("delete all reminders" before
#: "delete X", "clear the shopping list" before list edits), follow-ups and guesses last.
MATCHERS: tuple[Matcher, ...] = (
    reminder_deletes.delete_all,
    reminder_deletes.delete_some,
    reminder_deletes.everything,
    reminder_changes.ends_on,
    reminder_deletes.stop_reminding,
    reminder_skips.skip,
    list_removals.clear,
    list_removals.from_a_list_only,
    list_queries.show_all,
    daily.reminders_word,
    reminder_queries.next_ones,
    reminder_queries.when_is,
    reminder_queries.when_is_it,
    reminder_queries.show,
    daily.alarm,
    followups.again,
    ahead_of_it.ahead_of_it,
    kept_after_all.kept_after_all,
    remind_me_what.remind_me_what,
    reminders.create,
    reminder_hours.hours_changed,
    reminder_from_to.from_to,
    list_changes.make_it,
    list_changes.change,
    reminder_changes.rename,
    reminder_changes.move,
    reminder_changes.snooze,
    notes.delete_named,
    notes.change,
    notes_changes.update_with,
    notes_changes.add_to_note,
    notes_changes.told_changed,
    corrections.note_said_again,
    reminder_deletes.delete,
    lists.ran_out_then_add,
    list_starts.started_with_items,
    list_starts.start,
    lists.add,
    lists.ran_out,
    lists.add_bare,
    list_removals.remove,
    list_queries.show,
    daily.agenda,
    notes.delete,
    notes.search,
    notes.save,
    remembered.remembered,
    notes.where,
    conversation.out_of_scope,
    stated_plans.stated_plan,
    unconnected.calendar,
    unconnected.email,
    followups.referential,
    list_removals.not_after_all,
    lists.more,
    reminder_changes.move_named,
    nounless_deletes.stop_by_time,
    nounless_deletes.noun_less_delete,
    notes.recall,
    notes.statement,
    notes.link,
    stated_plans.timed_phrase,
)

#: Capabilities whose commands are requests Memo performs; a match on anything else (a calendar
#: word, a guess, a question about a note) gives way to a clause that is such a command.
_ACTIONABLE = frozenset({"reminders", "notes", "lists"})
_WEAK_PATTERNS = frozenset(
    {"notes:recall", "notes:statement", "delete:guess", "calendar", "email", "reminders:stated"}
)

#: Where a request may start inside a longer message: after a sentence break or a conjunction,
#: or at an imperative.
_CLAUSE_START = re.compile(
    r"(?:[,.;:!?\n]+\s*|\s+(?=(?:so|but|and|also|then|now|anyway|just|pls|please|can\s+you|could\s+you|"
    r"would\s+you|will\s+you|remind\s+me|set\s+(?:a|an|me\s+a)\s+(?:reminder|alarm)|add|put|note|"
    r"take\s+a\s+note|delete|remove|cancel|show|אז|אבל|ו?תזכיר|ו?תזכירי|ו?תוסיף|ו?תוסיפי|ו?תרשום|"
    r"ו?תרשמי|ו?תמחק|ו?תמחקי|ו?תבטל|אפשר|בבקשה)\b))",
    re.I,
)
_CLAUSE_LEAD = re.compile(
    r"^(?:(?:so|but|and|also|then|now|anyway|just|אז|אבל)\s+)+|^ו(?=תזכיר|תוסיף|תרשום|תרשמי|תמחק|תבטל)", re.I
)

#: Where a second request may start: "and", "also", "then", a sentence break; Hebrew "וגם", "ואז",
#: or "ו" glued to the next command (not the minutes of an hour: "בשש וחצי", "ב-4 ורבע"; nor the dot
#: of "2.06pm").
_SPLIT = re.compile(
    r"\s*(?:[;!?\n]|\.(?!\d)|(?<!\d)\.)+\s*(?:(?:and|also|then|plus)\s+)*|\s*,?\s+(?:and(?:\s+(?:also|then))?|also|then|plus)\s+"
    r"|\s*,?\s+(?:וגם|ואז|וכן)\s+"
    r"|\s*,?\s+ו(?!(?:חצי|רבע|עשרים|עשרה|עשר|חמישה|חמש|שלושים|ארבעים|חמישים)(?=\s|$|[,.!?]))(?=\S{2,})",
    re.I,
)


_RISK_ORDER: dict[RiskLevel, int] = {"low": 0, "medium": 1, "high": 2}


def _the_message_as_a_note(answer: PlannerResult, message: str) -> PlannerResult | None:
    """ "Gate code 4411" -> "what would you like me to do?" -> "save this as a note": the note is the
    message Memo asked about."""
    output = answer.output
    text = clean(message)
    if not text or output.missing_fields != [NOTE_TEXT_REQUIRED] or len(output.plan) != 1:
        return None
    step = output.plan[0]
    if (step.capability, step.action) != ("notes", "save"):
        return None
    saved = step.model_copy(update={"changes": {**step.changes, "text": text}})
    return replace(answer, output=output.model_copy(update={"plan": [saved], "missing_fields": []}))


def _politeness_stripped(text: str) -> str:
    stripped = clean(re.sub(POLITE_HE, "", re.sub(POLITE_EN, "", text, flags=re.I)))
    return stripped or text


def _is_command(found: Match | PlannerResult | None) -> bool:
    return (
        isinstance(found, Match) and found.capability in _ACTIONABLE and found.pattern not in _WEAK_PATTERNS
    )


def _is_complete(found: Match | PlannerResult | None) -> bool:
    return _is_command(found) and isinstance(found, Match) and not found.missing


class RulePlanner:
    """Deterministic planner (English + Hebrew). Stateless; safe to share."""

    def plan(self, inp: PlannerInput) -> PlannerResult:
        if inp.clarification:
            # Re-plan after intent_unclear: the answer alone first, then with the original request.
            first = self._plan_text(inp.clarification, inp)
            noted = _the_message_as_a_note(first, inp.message)
            if noted is not None:
                return noted
            if "intent_unclear" not in first.output.missing_fields:
                return first
            both = self._plan_text(f"{inp.message} {inp.clarification}", inp)
            # Words not understood, read together, are never guessed into a reminder, note or item
            # ("in an hour" -> "?" -> "sorry wrong chat"): only a request read with confidence is.
            return both if both.output.confidence >= REFERENTIAL else first
        return self._plan_text(inp.message, inp)

    def _plan_text(self, message: str, inp: PlannerInput) -> PlannerResult:
        text = clean(message)
        fixed = fix_typos(text)
        for candidate in (text, fixed):
            chat = conversation.chat(candidate, inp)
            if chat is not None:
                return to_result(chat)
        request = clean(strip_pleasantries(fixed))
        # With a greeting or a lead-in set aside, also the words after it as they were said.
        said = (fixed, request) if request == fixed else (fixed, greeted_off(fixed), request)
        for words in said:
            asked = asked_not_told.asked_not_told(words, inp)
            if asked is not None:  # "did I add milk?": a question, whatever command words it holds
                return to_result(asked)
        corrected = instead.corrected_request(request, inp, self._match)
        if corrected:  # "no wait, add napkins instead": that request; never a change of another item
            return _to_plan(corrected)
        twice = (
            several_days.on_several_days(request, inp, self._match)
            or several_days.on_several_month_days(request, inp, self._match)
            or (
                self._twice_a_day(request, inp)
                if _TWICE_A_DAY.search(request)
                else self._at_two_times(request, inp)
            )
        )
        if twice:
            return _to_plan(twice)
        moved = list_moves.moved_to_list(request, inp)  # "move the batteries to the hardware list"
        if moved:
            return _to_plan(moved)
        first = self._match(request, inp)
        if _is_command(first):
            assert isinstance(first, Match)
            return _to_plan(self._requests(request, first, inp))
        several = self._split(request, inp, 0)
        if several:
            return _to_plan(two_reminders.them_named(several))
        for start in _clause_starts(request):
            clause = clean(_CLAUSE_LEAD.sub("", request[start:]))
            if len(clause.split()) < 2:
                continue  # "... the passport note": a last word alone ("note") is no request of its own
            found = self._match(clause, inp)
            if _is_command(found):
                assert isinstance(found, Match)
                return _to_plan(self._requests(clause, found, inp))
        if isinstance(first, PlannerResult):
            return first
        if first is not None:
            return to_result(first)
        small_talk = conversation.small_talk(text)
        if small_talk is not None:
            return to_result(small_talk)
        return unclear(_politeness_stripped(request))

    def _twice_a_day(self, text: str, inp: PlannerInput) -> list[Match]:
        """ "twice a day at 8am and 8pm": two daily reminders. With no time said, 09:00 and 21:00, and
        with one, that one: each a guess the person confirms (the question shows what runs)."""
        hebrew = has_hebrew(text)
        daily = _TWICE_A_DAY.sub("כל יום" if hebrew else "every day", text, count=1)
        both = self._at_two_times(daily, inp)
        if both:
            return both
        if not parse_when(daily, inp).named_time:
            daily = _TWICE_A_DAY.sub(
                "כל יום ב-9 וב-21" if hebrew else "every day at 9am and 9pm", text, count=1
            )
            return [replace(m, confidence=min(m.confidence, GUESS)) for m in self._at_two_times(daily, inp)]
        once = self._match(daily, inp)
        return (
            [replace(once, confidence=min(once.confidence, GUESS))]
            if _is_complete(once) and isinstance(once, Match)
            else []
        )

    def _at_two_times(self, text: str, inp: PlannerInput) -> list[Match]:
        """ "every day at 8am and 8pm to take pills", "ב-8 וב-20": one reminder at each time (read
        as one, the second time was part of the title and the reminder fired once a day)."""
        found = _TWO_TIMES.search(text)
        if found is None:
            return []
        hebrew = found.group("h1") is not None
        times = (found.group("h1"), found.group("h2")) if hebrew else (found.group("t1"), found.group("t2"))
        times = _on_one_clock(times[0].strip(), times[1].strip(), hebrew)
        said = [f"{text[: found.start()]}{_at_time(t, hebrew)}{text[found.end() :]}" for t in times]
        matches = [self._match(clean(one), inp) for one in said]
        if not all(
            isinstance(m, Match) and (m.capability, m.action) == ("reminders", "create") and not m.missing
            for m in matches
        ):
            return []
        return [m for m in matches if isinstance(m, Match)]

    def _match(self, text: str, inp: PlannerInput) -> Match | PlannerResult | None:
        stripped = _politeness_stripped(text)
        for matcher in MATCHERS:
            found = matcher(stripped, inp)
            if found is not None:
                return found
        return None

    def _requests(self, text: str, found: Match, inp: PlannerInput, depth: int = 0) -> list[Match]:
        """`found` for `text`, or the several complete requests `text` holds, in order."""
        several = self._split(text, inp, depth)
        return two_reminders.them_named(several) if several else [found]

    def _split(self, text: str, inp: PlannerInput, depth: int) -> list[Match]:
        """The complete requests `text` holds when it holds two or more; else []."""
        if depth >= 4:
            return []
        for split in _SPLIT.finditer(text):
            left, right = text[: split.start()], text[split.end() :]
            if not left.strip() or not right.strip() or _DAYS_GO_ON.match(right) or _BETWEEN.search(left):
                continue
            left_match = self._match(left, inp)
            if not _is_complete(left_match):
                found = self._day_then_time(left_match, right, inp, depth) or _beside_one_asked(
                    left_match, self._match(right, inp)
                )
                if found:
                    return found
                continue
            assert isinstance(left_match, Match)
            for variant, guessed in continuations(right, left_match, inp):
                right_match = self._match(variant, inp)
                timed = two_reminders.at_the_same_time(right_match, left_match, inp)
                if timed is not None:
                    right_match, guessed = timed, True
                if (
                    not guessed
                    and not _is_complete(right_match)
                    and _beside_one_asked(right_match, left_match)
                ):
                    # "add paper to the list and remind me to buy a gift on 15/12": its time is asked
                    assert isinstance(right_match, Match)
                    return [left_match, right_match]
                if _is_complete(right_match):
                    assert isinstance(right_match, Match)
                    right_match = two_reminders.on_the_same_day(right_match, left_match, variant, inp)
                    if guessed:
                        # "... and dad at 7": read as "call dad at 7", a guess the person confirms.
                        right_match = replace(right_match, confidence=min(right_match.confidence, GUESS))
                    return [left_match, *self._requests(variant, right_match, inp, depth + 1)]
        return []

    def _day_then_time(
        self, left: Match | PlannerResult | None, right: str, inp: PlannerInput, depth: int
    ) -> list[Match]:
        """ "tomorrow to call mom and on friday at 6 to call dad": the first reminder has a day and
        no time, the second both; the first at the second's time, both a guess the person confirms."""
        if not isinstance(left, Match) or left.capability != "reminders" or left.action != "create":
            return []
        for variant, guessed in continuations(right, left, inp):
            right_match = self._match(variant, inp)
            if not _is_complete(right_match) or (guessed and not parse_when(variant, inp).explicit_day):
                continue  # "on monday to buy milk and eggs at 10": the time is the one request's
            assert isinstance(right_match, Match)
            right_match = two_reminders.on_the_day_of(right_match, left, variant, inp)
            timed = two_reminders.at_the_same_time(left, right_match, inp)
            if timed is None:
                return []
            guess = min(right_match.confidence, GUESS)
            return [
                replace(timed, confidence=min(timed.confidence, GUESS)),
                *self._requests(variant, replace(right_match, confidence=guess), inp, depth + 1),
            ]
        return []


def _beside_one_asked(
    asked: Match | PlannerResult | None, other: Match | PlannerResult | None
) -> list[Match]:
    """ "remind me to buy a gift on 15/12 and add paper to the list": a reminder whose time alone is
    still to ask beside a complete request of another kind; both, in the order said (the time is
    asked, and neither runs before it is answered). [] otherwise: the words are one request."""
    if not (
        isinstance(asked, Match) and _is_command(asked) and _is_complete(other) and isinstance(other, Match)
    ):
        return []
    if (asked.capability, asked.action) != ("reminders", "create") or set(asked.missing) != {
        "reminder_time_required"
    }:
        return []
    if other.capability == "reminders" or not asked.constraints.get("title"):
        return []
    return [asked, other]


#: "on tues, weds and fridays at 10": the days of one repetition go on after the "and".
#: "every hour between 10am and 6pm": the "and" joins the hours of one window.
_BETWEEN = re.compile(r"(?:\bbetween|(?<!\S)בין)\s+\S+\s*$", re.I)
_DAYS_GO_ON = re.compile(r"^\s*(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days\b", re.I)


def _clause_starts(text: str) -> list[int]:
    return sorted({m.end() for m in _CLAUSE_START.finditer(text) if 0 < m.end() < len(text)})


#: "twice a day", "2 times a day", "פעמיים ביום".
_TWICE_A_DAY = re.compile(
    r"\b(?:twice|2\s+times|two\s+times)\s+(?:a|per|every)\s+day\b|(?:(?<=\s)|^)(?:פעמיים|2\s+פעמים)\s+ב(?:יום|כל\s+יום)(?=\s|$|[,.!?])",
    re.I,
)

#: Two clock times joined by "and": "at 8am and 8pm", "at 9:30 and 17:00", "ב-8 וב-20".
_CLOCK = r"\d{1,2}(?::[0-5]\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?"
#: One Hebrew time of two: "8", "20:00", "שמונה", "שמונה בבוקר", "8 בערב".
_HE_TIME = (
    r"(?:\d{1,2}(?::[0-5]\d)?|אחת\s+עשרה|שתים\s+עשרה|אחת|שתיים|שלוש|ארבע|חמש|שש|שבע|שמונה|תשע|עשר)"
    r"(?:\s+(?:בבוקר|בערב|בלילה|בצהריים|אחר\s+הצהריים))?"
)
_TWO_TIMES = re.compile(
    rf"\bat\s+(?P<t1>{_CLOCK})\s+and\s+(?:at\s+)?(?P<t2>{_CLOCK})(?=\s|$|[,.!?])"
    rf"|(?:(?<=\s)|^)(?:בשעה\s+|ב-?)(?P<h1>{_HE_TIME})\s+וב-?(?:שעה\s+)?(?P<h2>{_HE_TIME})(?=\s|$|[,.!?])",
    re.I,
)


_BARE_CLOCK = re.compile(r"^(?P<h>\d{1,2})(?::[0-5]\d)?$")


def _on_one_clock(first: str, second: str, hebrew: bool) -> tuple[str, str]:
    """ "at 8 and 20", "ב-8 וב-20": one time said on the 24-hour clock (13 and over) says the other,
    bare one is too: 8 is the morning's (read alone after 8am it would be 20:00 too, twice)."""
    hours = [_BARE_CLOCK.match(t) for t in (first, second)]
    if not all(hours):
        return first, second
    h1, h2 = (int(m.group("h")) for m in hours if m is not None)
    morning = "בבוקר" if hebrew else "am"
    if h2 >= 13 and 1 <= h1 < 12:
        first = f"{first} {morning}" if hebrew else f"{first}{morning}"
    elif h1 >= 13 and 1 <= h2 < 12:
        second = f"{second} {morning}" if hebrew else f"{second}{morning}"
    return first, second


def _at_time(time: str, hebrew: bool) -> str:
    """ "at 8pm", "ב-20", "בשמונה בערב": one of two times said alone."""
    if not hebrew:
        return f"at {time}"
    return f"ב-{time}" if time[0].isdigit() else f"ב{time}"


def _to_plan(found: Sequence[Match]) -> PlannerResult:
    if len(found) == 1:
        return to_result(found[0])
    steps = [
        PlanStep(
            id=f"s{index}",
            capability=match.capability,
            action=match.action,
            constraints=dict(match.constraints),
            changes=dict(match.changes or {}),
        )
        for index, match in enumerate(found, start=1)
    ]
    output = PlannerOutput(
        intent_type="operation",
        confidence=min(m.confidence for m in found),
        risk_level=max((m.risk for m in found), key=lambda r: _RISK_ORDER[r]),
        needs_approval=any(m.needs_approval for m in found),
        # Only "on monday and wednesday to call mom" leaves a field to ask: the time, once for all.
        missing_fields=list(dict.fromkeys(field for m in found for field in m.missing)),
        plan=steps,
    )
    suggestions = [
        RoutingSuggestion(capability=m.capability, action=m.action, confidence=m.confidence, reason=m.pattern)
        for m in found
    ]
    return PlannerResult(output=output, routing_suggestions=suggestions, source="rules")
