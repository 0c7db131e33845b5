"""A day of Memo with three people, written as data: Dana (an English-speaking parent), Noa (writes in
Hebrew) and Tom (a traveller who flies to London and back), their messages interleaved from Monday
10:00 in Jerusalem until Tuesday morning on the fake clock.

Each exchange says what the reply must say and how the speaker's reminders, lists and notes change;
after every exchange (and every time the clock moves and reminders fire) all three people's items are
read from the items table and compared with what the script expects, so a message that should change
nothing (gibberish, "never mind", a tap on an old question) is checked to have changed nothing.
Signed WhatsApp payloads go through the webhook; replies are read from the local Graph API sink.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

import pytest

from memo.aws.items_table import DynamoItemsRepository
from memo.local.aws import client
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.tables import ITEMS
from memo.text.dates import format_when
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import START, at

LONDON = ZoneInfo("Europe/London")
JERUSALEM = ZoneInfo("Asia/Jerusalem")
DANA = WhatsAppUser(wa_id="972501110001", name="Dana")
NOA = WhatsAppUser(wa_id="972502220002", name="Noa")
TOM = WhatsAppUser(wa_id="972503330003", name="Tom")
PEOPLE = {"dana": DANA, "noa": NOA, "tom": TOM}
#: Fake time that passes between two messages of the script.
BETWEEN_MESSAGES = timedelta(seconds=30)


class Due(NamedTuple):
    """When a reminder goes off next, and whether it repeats."""

    at: datetime
    repeats: bool

    def __repr__(self) -> str:
        return f"{self.at.astimezone(JERUSALEM):%a %H:%M}" + (" (repeats)" if self.repeats else "")


def once(day: int, hour: int, minute: int = 0) -> Due:
    return Due(at(day, hour, minute), repeats=False)


def every(day: int, hour: int, minute: int = 0) -> Due:
    """A repeating reminder whose next time is `day` at `hour`:`minute` (Jerusalem)."""
    return Due(at(day, hour, minute), repeats=True)


def london(day: int, hour: int, minute: int = 0) -> Due:
    return Due(ldn(day, hour, minute), repeats=False)


def en(day: int, hour: int, minute: int = 0) -> str:
    """A Jerusalem time as Memo's English replies write it."""
    return format_when(at(day, hour, minute), "en", "Asia/Jerusalem")


def he(day: int, hour: int, minute: int = 0) -> str:
    return format_when(at(day, hour, minute), "he", "Asia/Jerusalem")


def ldn(day: int, hour: int, minute: int = 0) -> datetime:
    """Wall-clock time in London on `day`."""
    return at(day, hour, minute).replace(tzinfo=LONDON)


def ldn_en(day: int, hour: int, minute: int = 0) -> str:
    """A London time as Memo's English replies write it to someone in London."""
    return format_when(ldn(day, hour, minute), "en", "Europe/London")


@dataclass(frozen=True)
class Say:
    """`who` sends `text` ("#tap N" presses button N of the last question or reminder); the reply
    contains every fragment of `reply`; the speaker's items change as given (None: gone; a list
    with no items: gone; a note True: kept, False: gone) and nothing else changes."""

    who: str
    text: str
    reply: str | tuple[str, ...]
    reminders: dict[str, Due | None] = field(default_factory=dict)
    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    notes: dict[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Clock:
    """The clock moves on to `day` at `hour`:`minute`; the reminders then due fire. `fired` is what
    each person gets (a fragment per message, in order; nobody else gets anything), and the
    reminders that went out change as `reminders` says (per person)."""

    day: int
    hour: int
    minute: int = 0
    fired: dict[str, tuple[str, ...]] = field(default_factory=dict)
    reminders: dict[str, dict[str, Due | None]] = field(default_factory=dict)


@dataclass
class Items:
    """One person's items as the script expects them (and as they are read back)."""

    reminders: dict[str, Due] = field(default_factory=dict)
    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    notes: set[str] = field(default_factory=set)

    def change(self, step: Say) -> None:
        self.set_reminders(step.reminders)
        for name, items in step.lists.items():
            self.lists[name] = items
            if not items:
                del self.lists[name]
        for text, kept in step.notes.items():
            (self.notes.add if kept else self.notes.discard)(text)

    def differences(self, expected: Items) -> list[str]:
        return [
            f"{kind}: has {mine!r}, expected {theirs!r}"
            for kind, mine, theirs in (
                ("reminders", self.reminders, expected.reminders),
                ("lists", self.lists, expected.lists),
                ("notes", self.notes, expected.notes),
            )
            if mine != theirs
        ]

    def set_reminders(self, changes: dict[str, Due | None]) -> None:
        for title, due in changes.items():
            if due is None:
                del self.reminders[title]
            else:
                self.reminders[title] = due


def stored(repository: DynamoItemsRepository, user: WhatsAppUser) -> Items:
    """What the items table holds for `user`: scheduled reminders, list items, notes."""
    items = Items()
    for reminder in repository.list_reminders(user.wa_id):
        if reminder.status == "scheduled":
            due = reminder.due_at.replace(second=0, microsecond=0)  # a snooze counts from the tap
            items.reminders[reminder.title] = Due(due, reminder.recurrence is not None)
    for item in repository.all_list_items(user.wa_id):
        items.lists[item.list_name] = (*items.lists.get(item.list_name, ()), item.text)
    items.notes = {note.text for note in repository.list_notes(user.wa_id)}
    return items


def has(reply: str, expected: str | tuple[str, ...]) -> bool:
    fragments = (expected,) if isinstance(expected, str) else expected
    return all(fragment in reply for fragment in fragments)


@dataclass
class Day:
    """The three people on one local stack, their conversations and the items they should have."""

    stack: LocalStack
    clock: FakeClock
    chats: dict[str, Conversation]
    expected: dict[str, Items]
    problems: list[str] = field(default_factory=list)

    @property
    def repository(self) -> DynamoItemsRepository:
        assert self.stack.resources is not None
        return DynamoItemsRepository(client("dynamodb"), self.stack.resources.table_names[ITEMS.env_var])

    def say(self, number: int, step: Say) -> None:
        self.clock.advance(seconds=BETWEEN_MESSAGES.total_seconds())
        chat = self.chats[step.who]
        reply = chat.tap(int(step.text[5:])) if step.text.startswith("#tap ") else chat.say(step.text)
        print(f"#{number} {step.who}> {step.text}\n{reply}")  # the transcript, shown when the day fails
        if not has(reply, step.reply):
            self.problems.append(
                f"#{number} {step.who}> {step.text}\n  expected {step.reply!r}\n  got {reply!r}"
            )
        self.expected[step.who].change(step)
        self.compare(number, f"{step.who}> {step.text}")

    def move(self, number: int, step: Clock) -> None:
        moment = at(step.day, step.hour, step.minute)
        assert moment >= self.clock.now, f"#{number}: the clock never goes back"
        self.clock.set(moment)
        assert self.stack.ticker is not None
        self.stack.ticker.tick()
        for who, chat in self.chats.items():
            got = chat.replies()
            wanted = step.fired.get(who, ())
            if len(got) != len(wanted) or not all(map(has, got, wanted)):
                self.problems.append(f"#{number} at {moment:%a %H:%M} {who} got {got!r}, expected {wanted!r}")
        for who, changes in step.reminders.items():
            self.expected[who].set_reminders(changes)
        self.compare(number, f"at {moment:%a %H:%M}")

    def compare(self, number: int, what: str) -> None:
        for who, user in PEOPLE.items():
            actual = stored(self.repository, user)
            for difference in actual.differences(self.expected[who]):
                self.problems.append(f"#{number} {what}: {who}'s {difference}")
            self.expected[who] = actual  # each difference is reported once


@pytest.fixture
def day(monkeypatch: pytest.MonkeyPatch) -> Iterator[Day]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    clock = FakeClock(START)
    with LocalStack(start_poller=False, clock=clock) as stack:
        chats = {who: Conversation(stack=stack, user=user) for who, user in PEOPLE.items()}
        yield Day(stack, clock, chats, {who: Items() for who in PEOPLE})


def test_a_day_of_three_people(day: Day) -> None:
    """Every exchange of the day below: what each reply says, and everyone's items after it."""
    for number, step in enumerate(DAY, start=1):
        if isinstance(step, Say):
            day.say(number, step)
        else:
            day.move(number, step)
    assert not day.problems, "\n".join(day.problems)


# ---------------------------------------------------------------------------------------------
# The day. Monday (day 0) starts at 10:00 in Jerusalem; Tom is in London from 12:30 to 21:00.

GREETINGS_AND_REMINDERS: list[Say | Clock] = [
    Say("dana", "hi", ("Dana", "I'm Memo")),
    Say(
        "dana",
        "remind me to call mom at 5pm",
        f"⏰ Reminder set: “call mom” for {en(0, 17)}.",
        reminders={"call mom": once(0, 17)},
    ),
    Say("noa", "היי", ("Noa", "כאן Memo")),
    Say(
        "dana",
        "actually make it 6pm",
        f"Updated the reminder “call mom” — now for {en(0, 18)}.",
        reminders={"call mom": once(0, 18)},
    ),
    Say("tom", "hello", ("Tom", "I'm Memo")),
    Say(
        "tom",
        "remind me to pack my passport tomorrow at 7am",
        f"⏰ Reminder set: “pack my passport” for {en(1, 7)}.",
        reminders={"pack my passport": once(1, 7)},
    ),
    Say(
        "noa",
        "תזכיר לי מחר ב-9 להתקשר לרופא",
        ("⏰ קבעתי תזכורת „להתקשר לרופא”", he(1, 9)),
        reminders={"להתקשר לרופא": once(1, 9)},
    ),
    Say(
        "noa",
        "בעצם תעשה את זה ב-10",
        ("עדכנתי את התזכורת „להתקשר לרופא”", he(1, 10)),
        reminders={"להתקשר לרופא": once(1, 10)},
    ),
    Say(
        "dana",
        "remind me to pick up the kids at 3:30pm",
        f"⏰ Reminder set: “pick up the kids” for {en(0, 15, 30)}.",
        reminders={"pick up the kids": once(0, 15, 30)},
    ),
    Say(
        "tom",
        "remind me to check in for my flight at 3pm",
        f"⏰ Reminder set: “check in for my flight” for {en(0, 15)}.",
        reminders={"check in for my flight": once(0, 15)},
    ),
    Say(
        "tom",
        "wait no, remind me to check in for my flight at 4pm instead",
        f"Updated the reminder “check in for my flight” — now for {en(0, 16)}.",
        reminders={"check in for my flight": once(0, 16)},
    ),
    Say(
        "dana",
        "remind me every monday at 8am to take out the trash",
        f"🔁 Reminder set: “take out the trash” every Monday at 08:00 (first: {en(7, 8)}).",
        reminders={"take out the trash": every(7, 8)},
    ),
    Say(
        "noa",
        "תזכיר לי כל יום ב-8 בבוקר לקחת ויטמינים",
        ("🔁 קבעתי תזכורת „לקחת ויטמינים” כל יום ב-08:00", he(1, 8)),
        reminders={"לקחת ויטמינים": every(1, 8)},
    ),
    Say(
        "noa",
        "תזכיר לי כל יום שלישי ב-7 בערב ללכת לחוג",
        ("„ללכת לחוג” כל יום שלישי ב-19:00", he(1, 19)),
        reminders={"ללכת לחוג": every(1, 19)},
    ),
    Say(
        "tom",
        "remind me to buy a phone charger at noon",
        f"⏰ Reminder set: “buy a phone charger” for {en(0, 12)}.",
        reminders={"buy a phone charger": once(0, 12)},
    ),
    Say(
        "dana",
        "what are my reminders?",
        (
            "Your reminders:",
            f"“pick up the kids” — {en(0, 15, 30)}",
            f"“call mom” — {en(0, 18)}",
            f"“take out the trash” — every Monday at 08:00 (next: {en(7, 8)})",
        ),
    ),
    Say(
        "noa",
        "מה התזכורות שלי?",
        (
            "התזכורות שלך:",
            f"„להתקשר לרופא” — {he(1, 10)}",
            "„לקחת ויטמינים” — כל יום ב-08:00",
            "„ללכת לחוג” — כל יום שלישי ב-19:00",
        ),
    ),
    Say("dana", "asdkjh qwe zzz", "I'm not sure I understood"),
    Say("noa", "כדגכדג שדגשדג", "לא בטוח שהבנתי"),
    Say("tom", "blorp fnarg", "I'm not sure I understood"),
    Say("dana", "thanks", "You're welcome!"),
]

LISTS: list[Say | Clock] = [
    Clock(0, 10, 30),
    Say(
        "dana",
        "add milk, eggs and bread to my shopping list",
        "Added milk, eggs, bread to your shopping list.",
        lists={"shopping": ("milk", "eggs", "bread")},
    ),
    Say(
        "noa",
        "תוסיף עגבניות, מלפפונים, גבינה, פיתות לרשימת הקניות",
        "הוספתי עגבניות, מלפפונים, גבינה, פיתות לרשימת הקניות.",
        lists={"קניות": ("עגבניות", "מלפפונים", "גבינה", "פיתות")},
    ),
    Say("dana", "show my shopping list", "Your shopping list:\n• milk\n• eggs\n• bread"),
    Say(
        "dana",
        "remove eggs from the shopping list",
        "Removed eggs from your shopping list.",
        lists={"shopping": ("milk", "bread")},
    ),
    Say("noa", "מה ברשימת הקניות?", "רשימת הקניות:\n• עגבניות\n• מלפפונים\n• גבינה\n• פיתות"),
    Say(
        "tom",
        "add adapter, sunscreen and headphones to my packing list",
        "Added adapter, sunscreen, headphones to your packing list.",
        lists={"packing": ("adapter", "sunscreen", "headphones")},
    ),
    Say(
        "dana",
        "add apples, bananas and yogurt to the shopping list",
        "Added apples, bananas, yogurt to your shopping list.",
        lists={"shopping": ("milk", "bread", "apples", "bananas", "yogurt")},
    ),
    Say(
        "dana",
        "clear the shopping list",
        ("I'm about to clear your shopping list (5 items)", "1. “milk”", "3. “apples”", "5. “yogurt”"),
    ),
    Say(
        "dana",
        "only 1 and 3",
        "Removed milk, apples from your shopping list.",
        lists={"shopping": ("bread", "bananas", "yogurt")},
    ),
    Say(
        "noa", "תנקה את רשימת הקניות", ("רגע לפני: אני עומד לנקות את רשימת הקניות (4 פריטים)", "1. „עגבניות”")
    ),
    Say(
        "tom",
        "remove sunscreen from my packing list",
        "Removed sunscreen from your packing list.",
        lists={"packing": ("adapter", "headphones")},
    ),
    Say("noa", "רק 1 ו-3", "הורדתי עגבניות, גבינה מרשימת הקניות.", lists={"קניות": ("מלפפונים", "פיתות")}),
    Say("dana", "clear the shopping list", "I'm about to clear your shopping list (3 items)"),
    Say(
        "dana",
        "qwpoeiru zxmv",
        ("Sorry, I didn't catch that", "I'm about to clear your shopping list (3 items)"),
    ),
    Say("dana", "keep it", "OK, cancelled. Nothing was changed."),
    Say("dana", "show the shopping list", "Your shopping list:\n• bread\n• bananas\n• yogurt"),
    Say("noa", "תנקה את רשימת הקניות", "(2 פריטים)"),
    Say("noa", "לא", "בסדר, ביטלתי. לא שיניתי כלום."),
    Say("noa", "מה ברשימת הקניות?", "רשימת הקניות:\n• מלפפונים\n• פיתות"),
    Say(
        "noa",
        "תוסיף לרשימת המטלות לתקן את הברז",
        "הוספתי לתקן את הברז לרשימת המטלות.",
        lists={"מטלות": ("לתקן את הברז",)},
    ),
    Say("noa", "אילו רשימות יש לי?", ("הרשימות שלך:", "• קניות (2 פריטים)", "• מטלות (פריט אחד)")),
    Say("tom", "show my packing list", "Your packing list:\n• adapter\n• headphones"),
    Say(
        "dana",
        "add book swimming lessons to my to-do list",
        "Added book swimming lessons to your to-do list.",
        lists={"to-do": ("book swimming lessons",)},
    ),
    Say("dana", "what lists do I have?", ("Your lists:", "• shopping (3 items)", "• to-do (1 item)")),
    Say("tom", "clear my packing list", "I'm about to clear your packing list (2 items)"),
    Say("tom", "yes", "Removed adapter, headphones from your packing list.", lists={"packing": ()}),
    Say("tom", "show my packing list", "Your packing list is empty."),
    Say(
        "tom",
        "add passport to my packing list",
        "Added passport to your packing list.",
        lists={"packing": ("passport",)},
    ),
    Say("tom", "what lists do I have?", ("Your lists:", "• packing (1 item)")),
]

NOTES: list[Say | Clock] = [
    Clock(0, 11, 0),
    Say(
        "dana",
        "note: wifi password is banana42",
        "📝 Saved your note “wifi password is banana42”.",
        notes={"wifi password is banana42": True},
    ),
    Say(
        "noa",
        "תרשום פתק: הקוד של השער הוא 1234",
        "📝 שמרתי את הפתק „הקוד של השער הוא 1234”.",
        notes={"הקוד של השער הוא 1234": True},
    ),
    Say(
        "dana",
        "note that the school play is on the 20th",
        "📝 Saved your note “the school play is on the 20th”.",
        notes={"the school play is on the 20th": True},
    ),
    Say(
        "tom",
        "note: hotel booking ref is XK42Q",
        "📝 Saved your note “hotel booking ref is XK42Q”.",
        notes={"hotel booking ref is XK42Q": True},
    ),
    Say("dana", "search notes for wifi", "Found 1 note for “wifi”:\n• wifi password is banana42"),
    Say("noa", "תחפש בפתקים שער", "מצאתי פתק אחד עבור „שער”:\n• הקוד של השער הוא 1234"),
    Say(
        "dana",
        "change the school play note to: the school play is on the 21st",
        "📝 Updated your note: “the school play is on the 21st”.",
        notes={"the school play is on the 20th": False, "the school play is on the 21st": True},
    ),
    Say(
        "noa",
        "תעדכן את הפתק של השער: הקוד של השער הוא 5678",
        "📝 עדכנתי את הפתק: „הקוד של השער הוא 5678”.",
        notes={"הקוד של השער הוא 1234": False, "הקוד של השער הוא 5678": True},
    ),
    Say("tom", "what's my hotel booking ref?", "• hotel booking ref is XK42Q"),
    Say("dana", "search my notes for play", "Found 1 note for “play”:\n• the school play is on the 21st"),
    Say("noa", "תחפש בפתקים שער", "• הקוד של השער הוא 5678"),
    Say(
        "dana",
        "show my notes",
        ("Found 2 notes:", "• wifi password is banana42", "• the school play is on the 21st"),
    ),
    Say("dana", "delete the wifi note", ("I'm about to delete 1 note", "“wifi password is banana42”")),
    Say("dana", "keep it", "OK, cancelled. Nothing was changed."),
    Say(
        "noa",
        "תרשום פתק: מספר הביטוח 55-1234",
        "📝 שמרתי את הפתק „מספר הביטוח 55-1234”.",
        notes={"מספר הביטוח 55-1234": True},
    ),
    Say("noa", "מה הפתקים שלי?", ("מצאתי 2 פתקים", "• מספר הביטוח 55-1234", "• הקוד של השער הוא 5678")),
    Say("noa", "תודה", "בכיף!"),
    Say("tom", "thanks", "You're welcome!"),
]

DELETIONS: list[Say | Clock] = [
    Clock(0, 11, 15),
    Say(
        "dana",
        "remind me to call the dentist tomorrow at 10am",
        f"⏰ Reminder set: “call the dentist” for {en(1, 10)}.",
        reminders={"call the dentist": once(1, 10)},
    ),
    Say(
        "dana",
        "delete the dentist reminder",
        ("I'm about to delete 1 reminder", f"“call the dentist” — {en(1, 10)}"),
    ),
    Say("dana", "never mind", "OK, cancelled. Nothing was changed."),
    Say("dana", "delete the dentist reminder", "I'm about to delete 1 reminder"),
    # Nothing ran yet: "undo" is the way out of the question, as "never mind" is.
    Say("dana", "undo", "OK, cancelled. Nothing was changed."),
    Say("dana", "delete the dentist reminder", "I'm about to delete 1 reminder"),
    Say("dana", "yes", "Deleted the reminder “call the dentist”.", reminders={"call the dentist": None}),
    Say("dana", "undo", "↩️ Undone: “call the dentist” is back.", reminders={"call the dentist": once(1, 10)}),
    Say("noa", "תמחק את התזכורת של הרופא", ("רגע לפני: אני עומד למחוק תזכורת אחת", "„להתקשר לרופא”")),
    Say("noa", "עזוב", "בסדר, ביטלתי. לא שיניתי כלום."),
    Say("noa", "תמחק את הפתק של השער", ("רגע לפני: אני עומד למחוק פתק אחד", "„הקוד של השער הוא 5678”")),
    Say("noa", "כן", "מחקתי את הפתק „הקוד של השער הוא 5678”.", notes={"הקוד של השער הוא 5678": False}),
    Say(
        "noa",
        "בטל את המחיקה",
        "↩️ ביטלתי את המחיקה ושחזרתי את „הקוד של השער הוא 5678”.",
        notes={"הקוד של השער הוא 5678": True},
    ),
    Say(
        "tom",
        "delete all my reminders",
        (
            "I'm about to delete all your reminders (3)",
            "“buy a phone charger”",
            "“check in for my flight”",
            "“pack my passport”",
        ),
    ),
    Say(
        "tom",
        "cancel the passport reminder",
        "Deleted 1 reminder: “pack my passport”.",
        reminders={"pack my passport": None},
    ),
    Say("tom", "undo", "↩️ Undone: “pack my passport” is back.", reminders={"pack my passport": once(1, 7)}),
    Say("tom", "delete all my reminders", "I'm about to delete all your reminders (3)"),
    Say(
        "tom",
        "remind me to buy travel insurance at 1pm",
        f"⏰ Reminder set: “buy travel insurance” for {en(0, 13)}.",
        reminders={"buy travel insurance": once(0, 13)},
    ),
    Say("tom", "#tap 1", "I'm not waiting on a question right now"),
    Say(
        "dana",
        "remind me to buy a birthday gift at 7pm",
        f"⏰ Reminder set: “buy a birthday gift” for {en(0, 19)}.",
        reminders={"buy a birthday gift": once(0, 19)},
    ),
    Say(
        "dana",
        "remind me to renew the car insurance on thursday at 9am",
        f"⏰ Reminder set: “renew the car insurance” for {en(3, 9)}.",
        reminders={"renew the car insurance": once(3, 9)},
    ),
    Say(
        "dana",
        "delete all my reminders",
        (
            "I'm about to delete all your reminders (6)",
            "3. “buy a birthday gift”",
            "5. “renew the car insurance”",
        ),
    ),
    Say(
        "dana",
        "only 3 and 5",
        "Deleted 2 reminders: “buy a birthday gift”, “renew the car insurance”.",
        reminders={"buy a birthday gift": None, "renew the car insurance": None},
    ),
    Say(
        "dana",
        "what are my reminders?",
        (
            f"“pick up the kids” — {en(0, 15, 30)}",
            f"“call mom” — {en(0, 18)}",
            f"“call the dentist” — {en(1, 10)}",
            "“take out the trash” — every Monday",
        ),
    ),
    Say("noa", "מה התזכורות שלי?", f"„להתקשר לרופא” — {he(1, 10)}"),
    Say(
        "noa",
        "תזכיר לי מחר ב-9 לקבוע תור לספר",
        ("„לקבוע תור לספר”", he(1, 9)),
        reminders={"לקבוע תור לספר": once(1, 9)},
    ),
    Say(
        "noa",
        "תזכיר לי מחר ב-11 לשלם חשבון חשמל",
        ("„לשלם חשבון חשמל”", he(1, 11)),
        reminders={"לשלם חשבון חשמל": once(1, 11)},
    ),
    Say(
        "noa",
        "תמחק את כל התזכורות שלי",
        ("רגע לפני: אני עומד למחוק את כל התזכורות שלך (5)", "2. „לקבוע תור לספר”", "4. „לשלם חשבון חשמל”"),
    ),
    Say(
        "noa",
        "רק 2 ו-4",
        "מחקתי 2 תזכורות: „לקבוע תור לספר”, „לשלם חשבון חשמל”.",
        reminders={"לקבוע תור לספר": None, "לשלם חשבון חשמל": None},
    ),
    Say(
        "noa",
        "בטל את המחיקה",
        ("↩️ ביטלתי את המחיקה ושחזרתי את „", "„לקבוע תור לספר”", "„לשלם חשבון חשמל”"),  # in either order
        reminders={"לקבוע תור לספר": once(1, 9), "לשלם חשבון חשמל": once(1, 11)},
    ),
    Say("noa", "תמחק את התזכורת של הספר", ("רגע לפני: אני עומד למחוק תזכורת אחת", "„לקבוע תור לספר”")),
    Say("noa", "כן", "מחקתי את התזכורת „לקבוע תור לספר”.", reminders={"לקבוע תור לספר": None}),
]

TRAVEL: list[Say | Clock] = [
    Clock(
        0,
        12,
        0,
        fired={"tom": ("⏰ Reminder: buy a phone charger",)},
        reminders={"tom": {"buy a phone charger": None}},
    ),
    Say("tom", "#tap 1", "✅ Marked “buy a phone charger” done."),
    Clock(0, 12, 30),
    # Only the first line: what follows about the reminders already set is being reworded.
    Say(
        "tom",
        "my timezone is London",
        "Done 👍 From now on times are in Europe/London. It's 10:30 there now.\n",
    ),
    Say(
        "tom",
        "what are my reminders?",
        (
            f"“buy travel insurance” — {ldn_en(0, 11)}",
            f"“check in for my flight” — {ldn_en(0, 14)}",
            f"“pack my passport” — {ldn_en(1, 5)}",
        ),
    ),
    Say(
        "tom",
        "remind me to buy souvenirs at 6pm",
        f"⏰ Reminder set: “buy souvenirs” for {ldn_en(0, 18)}.",
        reminders={"buy souvenirs": london(0, 18)},
    ),
    Say(
        "tom",
        "remind me to call the hotel at 3pm",
        f"⏰ Reminder set: “call the hotel” for {ldn_en(0, 15)}.",
        reminders={"call the hotel": london(0, 15)},
    ),
    Clock(
        0,
        13,
        0,
        fired={"tom": ("⏰ Reminder: buy travel insurance",)},
        reminders={"tom": {"buy travel insurance": None}},
    ),
    Say("tom", "done", "✅ Marked “buy travel insurance” done."),
    Say(
        "tom",
        "what are my reminders?",
        (
            f"“check in for my flight” — {ldn_en(0, 14)}\n• “call the hotel” — {ldn_en(0, 15)}\n"
            f"• “buy souvenirs” — {ldn_en(0, 18)}\n• “pack my passport” — {ldn_en(1, 5)}"
        ),
    ),
    Say("tom", "what's my hotel booking ref?", "• hotel booking ref is XK42Q"),
]

AFTERNOON: list[Say | Clock] = [
    Clock(0, 14, 0),
    Say(
        "dana",
        "remind me in 20 minutes to check the oven",
        f"⏰ Reminder set: “check the oven” for {en(0, 14, 20)}.",
        reminders={"check the oven": once(0, 14, 20)},
    ),
    Say(
        "noa",
        "תזכיר לי בעוד 20 דקות להוציא את העוגה",
        ("„להוציא את העוגה”", he(0, 14, 21)),
        reminders={"להוציא את העוגה": once(0, 14, 21)},
    ),
    Say(
        "noa",
        "רגע, תעשה את זה בעוד חצי שעה",
        ("עדכנתי את התזכורת „להוציא את העוגה”", he(0, 14, 31)),
        reminders={"להוציא את העוגה": once(0, 14, 31)},
    ),
    Say("dana", "remind me to water the plants tomorrow", f"What time on {en(1, 0)[:-7]}?"),
    Say(
        "dana",
        "at 9am",
        f"⏰ Reminder set: “water the plants” for {en(1, 9)}.",
        reminders={"water the plants": once(1, 9)},
    ),
    Say(
        "dana",
        "remind me every weekday at 7:30am to wake the kids",
        f"🔁 Reminder set: “wake the kids” every weekday (Sun–Thu) at 07:30 (first: {en(1, 7, 30)}).",
        reminders={"wake the kids": every(1, 7, 30)},
    ),
    Clock(
        0,
        14,
        21,
        fired={"dana": ("⏰ Reminder: check the oven",)},
        reminders={"dana": {"check the oven": None}},
    ),
    Say("dana", "done", "✅ Marked “check the oven” done."),
    Clock(
        0,
        14,
        32,
        fired={"noa": ("⏰ תזכורת: להוציא את העוגה",)},
        reminders={"noa": {"להוציא את העוגה": None}},
    ),
    Say("noa", "בוצע", "✅ סימנתי את „להוציא את העוגה” כבוצע."),
    Say(
        "noa", "תוריד את הפיתות מרשימת הקניות", "הורדתי פיתות מרשימת הקניות.", lists={"קניות": ("מלפפונים",)}
    ),
    Say(
        "noa",
        "תזכיר לי בשש בערב לאסוף את הכביסה",
        ("⏰ קבעתי תזכורת „לאסוף את הכביסה”", he(0, 18)),
        reminders={"לאסוף את הכביסה": once(0, 18)},
    ),
    Say(
        "noa",
        "רגע לא, תזכיר לי לאסוף את הכביסה בשבע במקום",
        ("עדכנתי את התזכורת „לאסוף את הכביסה”", he(0, 19)),
        reminders={"לאסוף את הכביסה": once(0, 19)},
    ),
    Say(
        "dana",
        "remind me to start dinner at 5:30pm",
        f"⏰ Reminder set: “start dinner” for {en(0, 17, 30)}.",
        reminders={"start dinner": once(0, 17, 30)},
    ),
    Say(
        "dana",
        "no wait, make it 5pm",
        f"Updated the reminder “start dinner” — now for {en(0, 17)}.",
        reminders={"start dinner": once(0, 17)},
    ),
    Say(
        "dana",
        "add pasta and tomato sauce to the shopping list",
        "Added pasta, tomato sauce to your shopping list.",
        lists={"shopping": ("bread", "bananas", "yogurt", "pasta", "tomato sauce")},
    ),
    Say(
        "dana",
        "remove bananas and yogurt from the shopping list",
        "Removed bananas, yogurt from your shopping list.",
        lists={"shopping": ("bread", "pasta", "tomato sauce")},
    ),
    Say(
        "noa",
        "תוסיף שמן זית לרשימת הקניות",
        "הוספתי שמן זית לרשימת הקניות.",
        lists={"קניות": ("מלפפונים", "שמן זית")},
    ),
    Clock(
        0,
        15,
        30,
        fired={"dana": ("⏰ Reminder: pick up the kids",)},
        reminders={"dana": {"pick up the kids": None}},
    ),
    Say(
        "dana",
        "#tap 2",
        f"⏰ I'll remind you about “pick up the kids” again at {en(0, 15, 40)}.",
        reminders={"pick up the kids": once(0, 15, 40)},
    ),
    Clock(
        0,
        15,
        41,
        fired={"dana": ("⏰ Reminder: pick up the kids",)},
        reminders={"dana": {"pick up the kids": None}},
    ),
    Say("dana", "#tap 1", "✅ Marked “pick up the kids” done."),
    Clock(
        0,
        16,
        0,
        fired={"tom": ("⏰ Reminder: check in for my flight",)},
        reminders={"tom": {"check in for my flight": None}},
    ),
    Say(
        "tom",
        "snooze 15 min",
        f"⏰ I'll remind you about “check in for my flight” again at {ldn_en(0, 14, 15)}.",
        reminders={"check in for my flight": once(0, 16, 15)},
    ),
    Clock(
        0,
        16,
        16,
        fired={"tom": ("⏰ Reminder: check in for my flight",)},
        reminders={"tom": {"check in for my flight": None}},
    ),
    Say("tom", "done", "✅ Marked “check in for my flight” done."),
]

EVENING: list[Say | Clock] = [
    Clock(
        0,
        17,
        0,
        fired={"dana": ("⏰ Reminder: start dinner",), "tom": ("⏰ Reminder: call the hotel",)},
        reminders={"dana": {"start dinner": None}, "tom": {"call the hotel": None}},
    ),
    Say("dana", "#tap 1", "✅ Marked “start dinner” done."),
    Say("tom", "#tap 1", "✅ Marked “call the hotel” done."),
    Clock(0, 18, 0, fired={"dana": ("⏰ Reminder: call mom",)}, reminders={"dana": {"call mom": None}}),
    Say(
        "dana",
        "#tap 3",
        f"⏰ I'll remind you about “call mom” again at {en(0, 19)}.",
        reminders={"call mom": once(0, 19)},
    ),
    Clock(
        0,
        19,
        1,
        fired={"dana": ("⏰ Reminder: call mom",), "noa": ("⏰ תזכורת: לאסוף את הכביסה",)},
        reminders={"dana": {"call mom": None}, "noa": {"לאסוף את הכביסה": None}},
    ),
    Say("noa", "בוצע", "✅ סימנתי את „לאסוף את הכביסה” כבוצע."),
    Say("dana", "done", "✅ Marked “call mom” done."),
    Say(
        "noa",
        "מה התזכורות שלי?",
        (
            f"• „לקחת ויטמינים” — כל יום ב-08:00 (הבאה: {he(1, 8)})\n• „להתקשר לרופא” — {he(1, 10)}\n"
            f"• „לשלם חשבון חשמל” — {he(1, 11)}\n• „ללכת לחוג” — כל יום שלישי ב-19:00 (הבאה: {he(1, 19)})"
        ),
    ),
    Say("noa", "מה ברשימת הקניות?", "רשימת הקניות:\n• מלפפונים\n• שמן זית"),
    Say("dana", "show my shopping list", "Your shopping list:\n• bread\n• pasta\n• tomato sauce"),
    Say("dana", "what lists do I have?", ("• shopping (3 items)", "• to-do (1 item)")),
    Say(
        "dana",
        "stop the trash reminders",
        f"1. “take out the trash” — every Monday at 08:00 (next: {en(7, 8)}) — the whole series",
    ),
    Say("dana", "yes", "Deleted the reminder “take out the trash”.", reminders={"take out the trash": None}),
    Say(
        "noa",
        "תפסיק את התזכורת של הוויטמינים",
        f"1. „לקחת ויטמינים” — כל יום ב-08:00 (הבאה: {he(1, 8)}) — כל הסדרה",
    ),
    Say("noa", "לא", "בסדר, ביטלתי. לא שיניתי כלום."),
    Clock(
        0, 20, 0, fired={"tom": ("⏰ Reminder: buy souvenirs",)}, reminders={"tom": {"buy souvenirs": None}}
    ),
    Say("tom", "#tap 1", "✅ Marked “buy souvenirs” done."),
    Clock(0, 21, 0),
    Say("tom", "חזרתי לארץ", "עודכן 👍 מעכשיו הזמנים לפי אזור הזמן Asia/Jerusalem. השעה שם עכשיו 21:00.\n"),
    Say("tom", "what are my reminders?", f"“pack my passport” — {en(1, 7)}"),
    Say("dana", "what are my reminders?", f"“call the dentist” — {en(1, 10)}"),
    Say(
        "dana",
        "what's coming up?",
        (
            f"“wake the kids” — every weekday (Sun–Thu) at 07:30 (next: {en(1, 7, 30)})",
            f"“water the plants” — {en(1, 9)}",
        ),
    ),
    Say(
        "dana",
        "what do I have tomorrow?",
        ("“wake the kids”", f"“water the plants” — {en(1, 9)}", f"“call the dentist” — {en(1, 10)}"),
    ),
]

NEXT_MORNING: list[Say | Clock] = [
    Clock(
        1,
        7,
        0,
        fired={"tom": ("⏰ Reminder: pack my passport",)},
        reminders={"tom": {"pack my passport": None}},
    ),
    Say("tom", "done", "✅ Marked “pack my passport” done."),
    Clock(
        1,
        7,
        30,
        fired={"dana": ("⏰ Reminder: wake the kids",)},
        reminders={"dana": {"wake the kids": every(2, 7, 30)}},
    ),
    Say("dana", "done", f"✅ Marked “wake the kids” done for this time; the next one is {en(2, 7, 30)}."),
    Clock(
        1,
        8,
        0,
        fired={"noa": ("⏰ תזכורת: לקחת ויטמינים",)},
        reminders={"noa": {"לקחת ויטמינים": every(2, 8)}},
    ),
    Clock(
        1,
        9,
        0,
        fired={"dana": ("⏰ Reminder: water the plants",)},
        reminders={"dana": {"water the plants": None}},
    ),
    Say("dana", "#tap 1", "✅ Marked “water the plants” done."),
    Clock(
        1,
        10,
        0,
        fired={"dana": ("⏰ Reminder: call the dentist",), "noa": ("⏰ תזכורת: להתקשר לרופא",)},
        reminders={"dana": {"call the dentist": None}, "noa": {"להתקשר לרופא": None}},
    ),
    Say("dana", "#tap 1", "✅ Marked “call the dentist” done."),
    Say("noa", "#tap 1", "✅ סימנתי את „להתקשר לרופא” כבוצע."),
    Clock(
        1, 11, 0, fired={"noa": ("⏰ תזכורת: לשלם חשבון חשמל",)}, reminders={"noa": {"לשלם חשבון חשמל": None}}
    ),
    Say("noa", "בוצע", "✅ סימנתי את „לשלם חשבון חשמל” כבוצע."),
]

DAY: list[Say | Clock] = [
    *GREETINGS_AND_REMINDERS,
    *LISTS,
    *NOTES,
    *DELETIONS,
    *TRAVEL,
    *AFTERNOON,
    *EVENING,
    *NEXT_MORNING,
]
