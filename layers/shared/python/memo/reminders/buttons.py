"""The buttons on a delivered reminder: "Done", "Snooze 10 min", "Snooze 1 hour".

Each button's id names the action and the reminder: `reminder:done:<id>`, `reminder:snooze:10:<id>`,
`reminder:snooze:60:<id>`. A tap arrives as a WhatsApp button reply; the turn
(`memo.turn.reminder_buttons`) starts one executor step (`reminders/done` or `reminders/snooze`)
like any step, so it is performed exactly once (the ledger keys it by the tap's message id) and
answered by the responder. A snooze is a one-time schedule; "Done" on a repeating reminder finishes that
occurrence only (`memo.capabilities.reminders.ReminderOperations`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal

from memo.replies import Choice
from memo.text.amounts import amount_digits
from memo.text.language import Language, detect_language

if TYPE_CHECKING:
    from memo.conversation.model import MemoryMessage

PREFIX = "reminder:"
SNOOZE_CHOICES = (10, 60)
_ID = re.compile(r"^reminder:(?:(?P<done>done)|snooze:(?P<minutes>\d{1,4})):(?P<id>[0-9A-Za-z_.-]{1,64})$")


@dataclass(frozen=True)
class ReminderButton:
    action: Literal["done", "snooze"]
    reminder_id: str
    minutes: int = 0
    #: A snooze to a time typed ("snooze it until 5pm", "remind me again tomorrow"): the words of
    #: the time, read by the turn (`to`), then the time itself (`at`)
    to: str = ""
    at: datetime | None = None

    def args(self) -> dict[str, object]:
        """The executor args of the tap (`reminders/done` or `reminders/snooze`)."""
        if self.action == "snooze" and self.at is not None:
            return {"reminderId": self.reminder_id, "at": self.at.isoformat()}
        if self.action == "snooze":
            return {"reminderId": self.reminder_id, "minutes": self.minutes}
        return {"reminderId": self.reminder_id}


def buttons(reminder_id: str, language: Language) -> list[Choice]:
    """The three buttons of a delivered reminder (titles within WhatsApp's 20 characters)."""
    he = language == "he"
    return [
        Choice(id=f"{PREFIX}done:{reminder_id}", title="בוצע ✅" if he else "Done ✅"),
        Choice(id=f"{PREFIX}snooze:10:{reminder_id}", title="נודניק 10 דק׳" if he else "Snooze 10 min"),
        Choice(id=f"{PREFIX}snooze:60:{reminder_id}", title="נודניק שעה" if he else "Snooze 1 hour"),
    ]


def is_reminder_button_id(reply_id: str | None) -> bool:
    """Whether a reply id is in the reminder buttons' namespace, well formed or not."""
    return reply_id is not None and reply_id.startswith(PREFIX)


def parse_button(reply_id: str | None) -> ReminderButton | None:
    """The reminder button a reply id names; None for any other reply or a malformed id (another
    amount, an id of other characters or longer than 64). Never raises, whatever the id."""
    if reply_id is None or not is_reminder_button_id(reply_id):
        return None
    match = _ID.match(reply_id)
    if match is None:
        return None
    if match.group("done"):
        return ReminderButton(action="done", reminder_id=match.group("id"))
    minutes = int(match.group("minutes"))
    if minutes not in SNOOZE_CHOICES:
        return None
    return ReminderButton(action="snooze", reminder_id=match.group("id"), minutes=minutes)


# --- the same, typed -------------------------------------------------------------------------------

#: How long after a reminder went out "done" / "snooze 15 min" typed alone is about it.
TYPED_WINDOW_MINUTES = 120


def delivered_lately(recent: Sequence[MemoryMessage], *, now: datetime) -> MemoryMessage | None:
    """The reminder that went out last among a thread's last few messages (`recent`, oldest first),
    if it went out in the last `TYPED_WINDOW_MINUTES` ("later" -> "How much later?" -> "in an hour"
    is still about it)."""
    sent = next((m for m in reversed(recent[-4:]) if m.kind == "reminder"), None)
    if sent is None or now - sent.at > timedelta(minutes=TYPED_WINDOW_MINUTES):
        return None
    return sent


#: The thanks said with it ("thanks, done", "done, thank you", "תודה, סיימתי"): still the done.
_THANKS = r"(?:thanks|thank\s+you|thx|ty|תודה(?:\s+רבה)?)"
_TYPED_DONE = re.compile(
    rf"^(?:{_THANKS}[\s,.!]+)?(?:(?:ok(?:ay)?|yes|yep|yeah|כן|אוקיי)[\s,]+)?"
    r"(?:done|did\s+it|i\s+did(?:\s+it)?|finished|completed|all\s+done|got\s+it\s+done|"
    rf"בוצע|עשיתי(?:\s+את\s+זה)?|סיימתי|טופל)(?:[\s,.!]+{_THANKS})?\s*[.!✅👍🙏]*$",
    re.I,
)
_UNITS = {"m": 1, "min": 1, "mins": 1, "minute": 1, "minutes": 1, "h": 60, "hr": 60, "hrs": 60, "hour": 60,
          "hours": 60, "דקות": 1, "דקה": 1, "דק": 1, "שעה": 60, "שעות": 60}  # fmt: skip
_AMOUNT = (
    r"(?:(?:in|for|by|another)\s+|(?:ב)?עוד\s+|ל-?)?(?P<n>an?|one|half\s+an|\d{1,4}|חצי|רבע)?\s*"
    r"(?:more\s+)?(?P<unit>minutes?|mins?|m|hours?|hrs?|h|דקות|דקה|דק'?|שעה|שעות|שעתיים)"
    # "in 10", "בעוד 10": a bare number after "in" is minutes (at most an hour), as when setting one.
    r"|(?:in|(?:ב)?עוד)\s+(?P<bare>[1-9]\d?)"
)
#: After "How much later?", or typed as the next message after the reminder: the amount alone ("in
#: an hour", "20 minutes", "10 more minutes", "בעוד חצי שעה", "עוד 10 דקות").
_AMOUNT_ALONE = re.compile(rf"^(?:{_AMOUNT})\s*[.!]*$", re.I)
#: "remind me in 10 minutes" with no title of its own: again, about this one.
_REMIND_ME_IN = re.compile(rf"^(?:remind\s+me|תזכיר\s+לי)\s+(?:{_AMOUNT})(?:\s+again|\s+שוב)?\s*[.!]*$", re.I)
_TYPED_SNOOZE = re.compile(
    rf"^(?:(?:please\s+)?snooze(?:\s+(?:it|this|that|this\s+one))?|"
    rf"remind\s+me\s+(?:again|later|(?:about\s+)?(?:it|this|that)(?:\s+again)?)|again|later|"
    rf"(?:תעשה\s+|תעשי\s+)?נודניק|תזכיר\s+לי\s+(?:(?:על\s+)?(?:זה|את\s+זה)\s+)?(?:שוב|עוד\s+פעם|אחר\s+כך)|שוב)"
    # "snooze 10", "נודניק 10": minutes, as the button says ("Snooze 10 min")
    rf"(?:\s+(?:{_AMOUNT}|(?P<minutes>[1-9]\d?)))?(?:\s+again|\s+שוב)?\s*[.!]*$",
    re.I,
)


#: "push it 10 minutes", "delay it by an hour", "תדחה את זה בעשר דקות": a reminder that went out,
#: put off by the amount said (from now, as its snooze buttons do); with no amount, not a snooze.
_TYPED_PUT_OFF = re.compile(
    rf"^(?:(?:push|delay|postpone|put\s+off)(?:\s+(?:it|this|that))?(?:\s+back)?|put\s+(?:it|this|that)\s+off|"
    rf"(?:תדחה|תדחי|דחה|תדחו)(?:\s+(?:את\s+זה|אותה|אותו|לי\s+את\s+זה))?)\s+(?:by\s+|ב-?)?(?:{_AMOUNT})\s*[.!]*$",
    re.I,
)


#: "snooze it until 5pm", "remind me again tomorrow", "remind me about it again on friday at 9",
#: "תזכיר לי שוב מחר", "תדחה את זה למחר": a reminder that went out, put off to a time said (read by
#: the turn, `ReminderButton.to`).
_TYPED_SNOOZE_TO = re.compile(
    r"^(?:(?:please\s+)?snooze(?:\s+(?:it|this|that))?\s+(?:until|till|'?til|to)|"
    r"remind\s+me(?:\s+about\s+(?:it|this|that))?\s+again(?:\s+(?:at|on))?|"
    r"(?:תזכיר|תזכירי)\s+לי\s+(?:על\s+זה\s+|את\s+זה\s+)?(?:שוב|עוד\s+פעם)|"
    r"(?:תעשה\s+|תעשי\s+)?נודניק\s+(?=עד))"
    r"\s*(?P<to>\S.*?)\s*[.!]*$",
    re.I,
)


#: "push it to 6pm", "move it to tomorrow", "תדחה את זה למחר": the same, only as the next message after the reminder
#: (or quoting it): later, "it" may be a reminder set since.
_TYPED_MOVE_TO = re.compile(
    r"^(?:(?:push|move|postpone|delay)\s+(?:it|this|that)\s+(?:to|until|till)\s+|"
    r"(?:תדחה|תדחי)(?:\s+(?:את\s+זה|אותה|אותו))?\s+(?=ל|עד))(?P<to>\S.*?)\s*[.!]*$",
    re.I,
)


#: What `typed_button` answers for "later" / "remind me later": how much later is asked.
HOW_MUCH_LATER = "how_much_later"


def how_much_later(language: Language) -> str:
    if language == "he":
        return "בעוד כמה זמן? למשל „נודניק 30 דקות” או „תזכיר לי שוב בעוד שעה”."
    return "How much later? For example “snooze 30 min” or “remind me again in an hour”."


_LEADS: dict[Language, str] = {"en": "⏰ Reminder: ", "he": "⏰ תזכורת: "}


def reminder_text(title: str, language: Language) -> str:
    """A delivered reminder's message: "⏰ Reminder: call mom"."""
    return _LEADS[language] + title


def delivered_title(text: str) -> str:
    """The title in a delivered reminder's message (`reminder_text`); "" for any other text."""
    return next((text[len(lead) :].strip() for lead in _LEADS.values() if text.startswith(lead)), "")


#: The words before a reminder named in typed words about it: "snooze call mom until 5pm", "push the
#: call mom reminder to 6", "remind me about call mom again tomorrow", "תדחה את להתקשר לאמא למחר".
#: ("move call mom to 6pm" stays a request of its own: it moves what is ahead, a series included.)
_NAMING = r"((?:please\s+)?snooze|push|delay|postpone|remind\s+me\s+about|תדחה|תדחי)\s+(?:את\s+)?(?:the\s+)?"


def by_its_name(text: str, delivered: str) -> str:
    """Typed words that name the delivered reminder (its message `delivered`, "⏰ Reminder: call mom")
    right after their verb, said of "it": "snooze call mom until 5pm" is "snooze it until 5pm". Any
    other words are returned as they are."""
    title = delivered_title(delivered)
    if not title:
        return text
    named = re.match(rf"^{_NAMING}{re.escape(title)}(?:\s+reminder|\s+one)?(?=\s|[.!]*$)", text, re.I)
    if named is None:
        return text
    it = "את זה" if detect_language(named.group(1), "en") == "he" else "it"  # in the verb's language
    return f"{named.group(1)} {it}{text[named.end() :]}"


def typed_button(
    text: str, reminder_id: str, *, asked_how_long: bool = False, right_after: bool = False
) -> ReminderButton | str | None:
    """ "done", "snooze 15 min", "remind me again in an hour", "remind me in 10 minutes", "בוצע",
    "תזכיר לי שוב בעוד שעה" typed right after a reminder went out: what its buttons do, for that
    reminder. A snooze with no amount is the first button's 10 minutes; "later" with no amount
    asks how much later (`HOW_MUCH_LATER`), never guessed; an amount alone ("in an hour", "עוד 10
    דקות") is a snooze when that was just asked (`asked_how_long`) or when it is the next message
    after the reminder (`right_after`). Anything else is None (the message is planned as usual)."""
    words = amount_digits(" ".join(text.split()))  # "snooze it for ten minutes": 10 minutes
    if _TYPED_DONE.match(words):
        return ReminderButton(action="done", reminder_id=reminder_id)
    alone = _AMOUNT_ALONE.match(words) if asked_how_long or right_after else None
    match = _TYPED_SNOOZE.match(words) or _REMIND_ME_IN.match(words) or _TYPED_PUT_OFF.match(words) or alone
    if match is None:
        to = _TYPED_SNOOZE_TO.match(words) or (_TYPED_MOVE_TO.match(words) if right_after else None)
        return ReminderButton(action="snooze", reminder_id=reminder_id, to=to.group("to")) if to else None
    bare = match.group("bare") or match.groupdict().get("minutes")
    if bare is not None:
        minutes = int(bare)
        return (
            ReminderButton(action="snooze", reminder_id=reminder_id, minutes=minutes)
            if minutes <= 60
            else None
        )
    unit = match.group("unit")
    if unit is None:
        if re.search(r"later|אחר\s+כך", words, re.I):
            return HOW_MUCH_LATER  # "remind me later": how much later is not said
        return ReminderButton(action="snooze", reminder_id=reminder_id, minutes=SNOOZE_CHOICES[0])
    unit = unit.lower().rstrip("'")
    if unit == "שעתיים":
        minutes = 120
    else:
        n = (match.group("n") or "1").lower()
        count = {"a": 1, "an": 1, "one": 1, "half an": 0.5, "חצי": 0.5, "רבע": 0.25}.get(n)
        minutes = int((count if count is not None else int(n)) * _UNITS[unit])
    if not 1 <= minutes <= 24 * 60:
        return None
    return ReminderButton(action="snooze", reminder_id=reminder_id, minutes=minutes)
