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
from dataclasses import dataclass
from typing import Literal

from memo.replies import Choice
from memo.text.language import Language

PREFIX = "reminder:"
SNOOZE_CHOICES = (10, 60)
_ID = re.compile(r"^reminder:(?:(?P<done>done)|snooze:(?P<minutes>\d{1,4})):(?P<id>[0-9A-Za-z_.-]{1,64})$")


@dataclass(frozen=True)
class ReminderButton:
    action: Literal["done", "snooze"]
    reminder_id: str
    minutes: int = 0

    def args(self) -> dict[str, object]:
        """The executor args of the tap (`reminders/done` or `reminders/snooze`)."""
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


def parse_button(reply_id: str | None) -> ReminderButton | None:
    """The reminder button a reply id names; None for any other reply (or a malformed id)."""
    if not reply_id or not reply_id.startswith(PREFIX):
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
