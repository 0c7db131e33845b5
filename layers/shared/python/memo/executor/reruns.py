"""Which steps may run again after an attempt crashed mid-way (claim taken, never completed).

A crashed attempt (a Lambda timeout, an out-of-memory kill, a lost host) leaves its ledger claim
`in_progress`; once the lease has run out nobody is running it, but whether its side effect happened
is unknown. A step whose action is idempotent *by construction* is run again (`memo.executor.step`
takes the claim over): the re-run finds whatever the crashed attempt did and finishes it, so the
person hears the true result once ("Reminder set", "Deleted 1 reminder."). Every other step keeps the
truthful "I can't confirm whether it went through".

The decision is made here, per (capability, action), explicitly and with its reason: an action that
is not in `RERUNS` is never re-run, and an action listed as unsafe says why. Some actions are safe
only with some args (`Rerun.when`): a "delete all" is safe when its targets were pinned by the
approval (the re-run tombstones the same ids and counts its own tombstones again), not when it
would list the items afresh (the crashed attempt's tombstones are hidden from a listing).

An operation may still refuse a re-run on its own (`memo.capabilities.base.RerunUnsafe`) when the
result would depend on what the crashed attempt did (a create whose time has passed meanwhile).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from memo.capabilities.reminder_args import OCCURRENCE, split_scoped

Args = Mapping[str, Any]


@dataclass(frozen=True)
class Rerun:
    """Whether (capability, action) may run again after a crashed attempt, and why."""

    safe: bool
    reason: str
    #: For a safe action: the args it is safe with (None: any).
    when: Callable[[Args], bool] | None = None

    def allows(self, args: Args) -> bool:
        return self.safe and (self.when is None or self.when(args))


def _pinned(key: str) -> Callable[[Args], bool]:
    def pinned(args: Args) -> bool:
        return args.get(key) is not None

    return pinned


def _no_single_occurrence(args: Args) -> bool:
    ids = args.get("reminderIds") or []
    return all(split_scoped(str(i))[1] != OCCURRENCE for i in ids)


_READ_ONLY = "reads only: no side effect, the re-run answers with what is there now"
_TOMBSTONES = (
    "each pinned target is tombstoned by a conditional write marked with the step's operation id "
    "(traceId:stepId): the re-run finds its own tombstones, counts them again and re-cancels"
)

#: (capability, action) -> may it run again after a crashed attempt. Every action the dispatcher
#: knows is decided here (a test holds the two tables together).
RERUNS: dict[tuple[str, str], Rerun] = {
    ("reminders", "create"): Rerun(
        True,
        "deterministic reminder id per (trace, step): the schedule is created or replaced under the "
        "same name and the item put is conditional (a no-op the second time); the result is built "
        "from the args. A time that passed meanwhile refuses the re-run (RerunUnsafe)",
    ),
    ("reminders", "list"): Rerun(True, _READ_ONLY),
    ("reminders", "update"): Rerun(
        False,
        "reads the reminder and moves it relative to what it finds (a time alone keeps its day): "
        "a re-run would read the crashed attempt's move and report the wrong previous time",
    ),
    ("reminders", "delete"): Rerun(
        True,
        _TOMBSTONES + "; not with a single occurrence of a series (`~occurrence`): skipping moves "
        "the series on, and a re-run would skip a second time",
        _no_single_occurrence,
    ),
    ("reminders", "delete_all"): Rerun(
        True,
        _TOMBSTONES + "; only with pinned ids: a fresh listing hides the crashed attempt's tombstones",
        _pinned("reminderIds"),
    ),
    ("reminders", "snooze"): Rerun(
        False, "the new time is counted from the moment it runs: a re-run would snooze it later"
    ),
    ("reminders", "done"): Rerun(
        True,
        "marks a one-time reminder sent with a conditional write (`scheduled` -> `sent`) and "
        "cancels its schedule (already gone is fine); a series is not written at all",
    ),
    ("notes", "save"): Rerun(
        True, "deterministic note id per (trace, step), conditional put; the result is the args"
    ),
    ("notes", "search"): Rerun(True, _READ_ONLY),
    ("notes", "update"): Rerun(
        True,
        "a conditional write of the revised text (the note reads the text it had, or already the new "
        "one); revising the revised note gives the same text, so a re-run writes and reports the same",
    ),
    ("notes", "delete"): Rerun(True, _TOMBSTONES),
    ("notes", "delete_all"): Rerun(
        True,
        _TOMBSTONES + "; only with pinned ids: a fresh listing hides the crashed attempt's tombstones",
        _pinned("noteIds"),
    ),
    ("lists", "add"): Rerun(
        True,
        "deterministic item id per (trace, step, position), conditional put; an item that is there "
        "under its own id counts as added by this step, not as already on the list",
    ),
    ("lists", "remove"): Rerun(True, _TOMBSTONES),
    ("lists", "update"): Rerun(
        True,
        "a conditional write of the new words (the item reads the words it had, or already the new "
        "ones); a re-run finds them there and reports the same change",
    ),
    ("lists", "show"): Rerun(True, _READ_ONLY),
    ("lists", "show_all"): Rerun(True, _READ_ONLY),
    ("lists", "clear"): Rerun(
        True,
        _TOMBSTONES + "; only with pinned ids: a fresh listing hides the crashed attempt's tombstones",
        _pinned("itemIds"),
    ),
    ("items", "undo"): Rerun(
        False,
        "a restore happens at most once: a re-run after a crashed restore finds nothing left in the "
        "bin and could not tell its own restore from an earlier Undo",
    ),
}


def may_rerun(capability: str, action: str, args: Args) -> bool:
    """True when a crashed attempt of this step may be run again (see `RERUNS`)."""
    rule = RERUNS.get((capability, action))
    return rule is not None and rule.allows(args)


def reads_only(capability: str, action: str) -> bool:
    """The action changes nothing (it lists, searches or shows)."""
    rule = RERUNS.get((capability, action))
    return rule is not None and rule.reason == _READ_ONLY
