"""What the turn's decisions read: the ports they read through, and one turn's view of them.

Every port here is read-only: the decisions write nothing (`memo.turn.outcome`). `Turn` bundles the
message's context with the ports, and reads each of the user's lists at most once however many of the
turn's steps (resolution, an approval's list, what changed since a question) look at it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from memo.capabilities.limits import UserCaps
from memo.capabilities.reminder_results import on_days, times_counted
from memo.domain import (
    DisambiguationCandidate,
    InterpreterOutput,
    LatestAction,
    PlanStep,
    TurnInput,
    TurnState,
)
from memo.hitl.interpreter import Interpreter, InterpreterInput, RuleInterpreter
from memo.hitl.request_rules import RequestRules
from memo.hitl.templates.approval import NEXT_TIME, SKIP_TIMES
from memo.observability import logger
from memo.operator_review.policy import DEFAULT_POLICY, ReviewPolicy
from memo.operator_review.waits import ReviewWait
from memo.planner import Planner, PlannerInput, PlannerResult
from memo.planner.intents.followups import says_again
from memo.planner.rules import RulePlanner
from memo.reminders.buttons import delivered_lately
from memo.reply.memory import LATEST_ACTIONS_MAX, current_actions
from memo.reply.quotes import refers_back
from memo.resolution.candidates import label
from memo.resolution.entity import ItemsReader
from memo.settings import DEFAULT_MESSAGE_MAX_CHARS, DEFAULT_NOTE_MAX_CHARS, DEFAULT_TITLE_MAX_CHARS
from memo.text.dates import format_span, format_when
from memo.text.language import Language
from memo.text.recurrence_limits import RecurrenceLimits
from memo.text.series import next_occurrence
from memo.text.series_words import describe
from memo.turn.outcome import TurnContext

if TYPE_CHECKING:
    from memo.capabilities.items import ListItem, Note, Reminder

LATEST_ACTIONS_FOR_PLANNER = 3


class QuoteReader(Protocol):
    """The items a message Memo sent named (`memo.reply.quotes.QuoteStore`)."""

    def recall(self, thread_id: str, message_id: str, *, now: datetime) -> list[LatestAction]: ...


class WaitingReviews(Protocol):
    """The newest request of a thread waiting for an operator (`memo.operator_review.withdraw`)."""

    def waiting(self, thread_id: str, *, now: datetime) -> ReviewWait | None: ...


class PendingReader(Protocol):
    """The thread's stored pending turn, read consistently (`memo.conversation.pending`)."""

    def current(self, thread_id: str) -> TurnState | None: ...


@dataclass(frozen=True)
class DecisionPorts:
    """What the decisions read through, and the rules they decide by; built by the composition root."""

    planner: Planner
    interpreter: Interpreter
    items: ItemsReader
    pending: PendingReader
    hitl_ttl_seconds: int
    review_policy: ReviewPolicy = DEFAULT_POLICY
    quotes: QuoteReader | None = None  # the items Memo's sent messages named (reply-to binding)
    reviews: WaitingReviews | None = None  # requests waiting for an operator, which "cancel" withdraws
    rules: Planner | None = None  # the rule planner that reads whether an answer is a request of its own
    # how far a repetition may reach (`MEMO_RECURRENCE_MAX_YEARS`, `MEMO_RECURRENCE_MAX_COUNT`)
    recurrence_limits: RecurrenceLimits = field(default_factory=RecurrenceLimits)
    # how long a note may be (`MEMO_NOTE_MAX_CHARS`): a longer one is refused before anything runs
    note_max_chars: int = DEFAULT_NOTE_MAX_CHARS
    # how long a message may be (`MEMO_MESSAGE_MAX_CHARS`): a longer one is answered, not read
    message_max_chars: int = DEFAULT_MESSAGE_MAX_CHARS
    # how long a reminder's title or a list item may be (`MEMO_TITLE_MAX_CHARS`): refused like a note
    title_max_chars: int = DEFAULT_TITLE_MAX_CHARS
    # what one person may keep (`memo.turn.limits`: `MEMO_MAX_REMINDERS`, ...)
    caps: UserCaps = field(default_factory=UserCaps)
    # how many one-time reminders a change of timezone names and offers to move (`MEMO_ZONE_MOVE_MAX_LISTED`)
    zone_move_listed: int = 5
    # the rules a request must keep (`memo.hitl.request_rules`: `MEMO_RULE_*`)
    request_rules: RequestRules = field(default_factory=RequestRules)
    # the planner and the interpreter each ask a language model (one request a call): a turn asks
    # it once, whatever else it then reads with the rules (`Turn.planner`, `Turn.interpreter`)
    asks_llm: bool = False


@dataclass
class Turn:
    """One turn as its decisions see it: the context, the ports, and the items read once."""

    ctx: TurnContext
    ports: DecisionPorts
    _items: ItemsReader | None = field(default=None, repr=False)
    _llm_asked: bool = field(default=False, repr=False)
    _quote: list[LatestAction] | None = field(default=None, repr=False)

    @property
    def items(self) -> ItemsReader:
        if self._items is None:
            self._items = ReadOnce(self.ports.items)
        return self._items

    @property
    def planner(self) -> Planner:
        """The turn's planner: the LLM's unless the turn asked the LLM already (an answer the
        interpreter read as a new request is then planned by the rules)."""
        return _PlanOnce(self)

    @property
    def interpreter(self) -> Interpreter:
        """The turn's interpreter, asking the LLM only if the turn has not asked it yet."""
        return _InterpretOnce(self)

    def may_ask_llm(self, use: str) -> bool:
        """Whether a planner or interpreter call of this turn may ask the LLM: at most once per
        message. True without an LLM (the ports are the rules then)."""
        if not self.ports.asks_llm:
            return True
        if self._llm_asked:
            logger.info("LLM_ASKED_ALREADY", extra={"use": use})
            return False
        self._llm_asked = True
        return True

    @property
    def ttl(self) -> int:
        return self.ports.hitl_ttl_seconds

    def fresh_state(self, request: str | None = None) -> TurnState:
        """The message as a new request of its own (its own traceId); `request`: the words it asks
        for, when they are not its own."""
        ctx = self.ctx
        return TurnState(
            trace_id=ctx.trace_id,
            thread_id=ctx.message.thread_id,
            input=TurnInput(
                message=request or ctx.message.text,
                language=ctx.profile.language,
                timezone=ctx.profile.timezone,
                whatsapp_message_id=ctx.message.wamid,
            ),
        )

    def quoted(self, state: TurnState) -> list[LatestAction]:
        """What the message the user replied to (WhatsApp `context.id`) named, read only when a step
        says "it/that" (`memo.reply.quotes`)."""
        # (No quote, no look at the plan: most turns quote nothing.)
        return self.quote_named() if self.ctx.message.context_id and refers_back(state) else []

    def quote_named(self) -> list[LatestAction]:
        """What the message the user replied to named, whatever the plan says; [] with no quote."""
        message = self.ctx.message
        quotes = self.ports.quotes
        if quotes is None or not message.context_id or message.reply_id:
            return []
        return self._recalled(quotes)

    def _recalled(self, quotes: QuoteReader) -> list[LatestAction]:
        """What the quoted message named, read once a turn: one of Memo's messages names what it
        confirmed or listed; one of the user's own requests, what that request did."""
        if self._quote is None:
            message = self.ctx.message
            quoted = str(message.context_id)
            self._quote = quotes.recall(message.thread_id, quoted, now=self.ctx.now) or done_by(
                self.ctx, quoted
            )
        return self._quote

    def quoted_first(self, state: TurnState) -> list[LatestAction]:
        """The planner's latest actions. A reply to an older confirmation is about *that* action:
        the one item the quoted message named comes first ("remove it" quoting "Added pears to your
        shopping list" removes the pears, whatever was done since; "and again in 4 hours" repeats
        the reminder it set). A quoted listing of several names no one item: none is put first, and
        to "again" no reminder is the latest."""
        latest = latest_actions(self.ctx)
        quoted = self.quote_named()
        if len(quoted) != 1:
            again = quoted and says_again(state.input.message)
            return [a for a in latest if a.capability != "reminders"] if again else latest
        return [quoted[0], *latest]

    def current_items(
        self, state: TurnState, step: PlanStep, args: dict[str, Any]
    ) -> list[DisambiguationCandidate]:
        """The user's items of the step's kind now, as candidates (title, when, day)."""
        language, tz = state.input.language, state.input.timezone
        zone = ZoneInfo(tz)
        now = self.ctx.now
        if step.capability == "reminders":
            return [
                DisambiguationCandidate(
                    id=r.reminder_id,
                    label=r.title,
                    description=_reminder_when(r.due_at, r.recurrence, language, tz),
                    data={
                        "day": r.due_at.astimezone(zone).date().isoformat(),
                        **_next_time(r, now, language, tz, _skip_days(args)),
                    },
                )
                for r in self.items.list_upcoming_reminders(state.thread_id, now)
            ]
        if step.capability == "notes":
            return [
                DisambiguationCandidate(
                    id=n.note_id,
                    label=label(n.text),
                    description=format_when(n.created_at, language, tz),
                    data={"day": n.created_at.astimezone(zone).date().isoformat()},
                )
                for n in self.items.list_notes(state.thread_id)
            ]
        list_name = args.get("listName") or step.constraints.get("listName")
        if step.capability == "lists" and isinstance(list_name, str):
            return [
                DisambiguationCandidate(id=i.item_id, label=i.text)
                for i in self.items.list_items(state.thread_id, list_name)
            ]
        return []

    def series_on(self, state: TurnState, day: date) -> set[str]:
        """The repeating reminders with a time on `day` (the user's day), whatever their next time:
        a daily reminder comes on Thursday even when its next time is tomorrow."""
        series = [
            r
            for r in self.items.list_upcoming_reminders(state.thread_id, self.ctx.now)
            if r.recurrence is not None
        ]
        return set(on_days(series, day, day, state.input.timezone))


@dataclass(frozen=True)
class _PlanOnce:
    turn: Turn

    def plan(self, inp: PlannerInput) -> PlannerResult:
        ports = self.turn.ports
        planner = ports.planner if self.turn.may_ask_llm("planner") else ports.rules or RulePlanner()
        return planner.plan(inp)


@dataclass(frozen=True)
class _InterpretOnce:
    turn: Turn

    def interpret(self, inp: InterpreterInput) -> InterpreterOutput:
        ports = self.turn.ports
        if self.turn.may_ask_llm("interpreter"):
            return ports.interpreter.interpret(inp)
        return RuleInterpreter(ports.rules).interpret(inp)


def latest_actions(ctx: TurnContext) -> list[LatestAction]:
    """The planner sees the last 3 actions of the 12-hour scope, newest first; a reminder that went
    out lately, after them, comes first ("skip tomorrow", "delete it" right after it: that one)."""
    delivered = _delivered_lately(ctx)
    try:
        latest = current_actions(ctx.snapshot.latest_actions, now=ctx.now, limit=LATEST_ACTIONS_FOR_PLANNER)
    except ValidationError:
        logger.warning("LATEST_ACTIONS_UNREADABLE")
        latest = []
    if delivered is None or (latest and latest[0].created_at >= delivered.created_at):
        return latest
    return [delivered, *latest][:LATEST_ACTIONS_FOR_PLANNER]


def done_by(ctx: TurnContext, message_id: str) -> list[LatestAction]:
    """What the user's own message `message_id` did, newest first (its actions carry its id as
    their request's: "<message id>:<step id>"); none when it is no request of theirs still in the
    12-hour scope."""
    try:
        actions = current_actions(ctx.snapshot.latest_actions, now=ctx.now, limit=LATEST_ACTIONS_MAX)
    except ValidationError:
        return []
    return [a for a in actions if (a.operation_id or "").rpartition(":")[0] == message_id]


_DELIVERED_TITLE = re.compile(r"^⏰\s*(?:Reminder|תזכורת):\s*(?P<title>.+)$", re.S)


def _delivered_lately(ctx: TurnContext) -> LatestAction | None:
    """The reminder that went out lately (`memo.reminders.buttons.delivered_lately`), as the action
    "it" names."""
    sent = delivered_lately(ctx.snapshot.recent, now=ctx.now)
    if sent is None or sent.reminder_id is None:
        return None
    titled = _DELIVERED_TITLE.match(sent.text.strip())
    title = titled.group("title").strip() if titled else sent.text.strip()
    return LatestAction(
        created_at=sent.at,
        capability="reminders",
        action="delivered",
        summary=f"reminder “{title}”",
        external_ids={"reminderId": sent.reminder_id},
    )


def _skip_days(args: dict[str, Any]) -> tuple[date, date] | None:
    """The days a skip names (`DeleteRemindersArgs.skip_from` / `skip_until`), or None."""
    try:
        return date.fromisoformat(str(args["skipFrom"])), date.fromisoformat(str(args["skipUntil"]))
    except (KeyError, ValueError):
        return None


def _next_time(
    reminder: Reminder, now: datetime, language: Language, timezone: str, days: tuple[date, date] | None
) -> dict[str, Any]:
    """A repeating reminder's next time, as a skip of it shows it (`NEXT_TIME`: it goes on after
    that time), or its times on the days a skip names (with how many, `SKIP_TIMES`); nothing for a
    one-time reminder, nor for a series whose next time is its last (skipping it ends the series)."""
    if reminder.recurrence is None:
        return {}
    if days is not None:
        times = on_days([reminder], days[0], days[1] - timedelta(days=1), timezone).get(reminder.reminder_id)
        if times:
            last = times[-1] if len(times) > 1 else None
            return {
                NEXT_TIME: format_span(times[0], last, len(times), language, timezone),
                SKIP_TIMES: times_counted(times),
            }
    if (
        next_occurrence(reminder.recurrence, reminder.timezone, max(reminder.due_at, now), reminder.skips)
        is None
    ):
        return {}
    return {NEXT_TIME: format_when(reminder.due_at, language, timezone)}


def _reminder_when(due_at: datetime, recurrence: str | None, language: Language, timezone: str) -> str:
    """When a listed reminder comes: a repeating one says so, as the reminder list does ("every
    Monday at 09:00 (next: Mon 30 Nov, 09:00)"), so an approval never hides that a series goes."""
    when = format_when(due_at, language, timezone)
    if recurrence is None:
        return when
    return f"{describe(recurrence, language)} ({'הבאה: ' if language == 'he' else 'next: '}{when})"


class ReadOnce:
    """An `ItemsReader` that reads each list once (one turn's view of the user's items)."""

    def __init__(self, items: ItemsReader) -> None:
        self._items = items
        self._lists: dict[tuple[str, ...], list[Any]] = {}

    def _once(self, key: tuple[str, ...], read: Callable[[], list[Any]]) -> list[Any]:
        if key not in self._lists:
            self._lists[key] = read()
        return list(self._lists[key])

    def list_upcoming_reminders(self, thread_id: str, now: datetime) -> list[Reminder]:
        return self._once(
            ("reminders", thread_id, now.isoformat()),
            lambda: self._items.list_upcoming_reminders(thread_id, now),
        )

    def list_notes(self, thread_id: str) -> list[Note]:
        return self._once(("notes", thread_id), lambda: self._items.list_notes(thread_id))

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        return self._once(
            ("list", thread_id, list_name), lambda: self._items.list_items(thread_id, list_name)
        )

    def all_list_items(self, thread_id: str) -> list[ListItem]:
        return self._once(("lists", thread_id), lambda: self._items.all_list_items(thread_id))
