"""The question asked when the user's timezone changes with one-time reminders ahead: each keeps its
moment, so it is named with its time in the new zone and the time it was set for, and Memo offers
to move it to that same clock time in the new zone (yes / no; "only 1" keeps some)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.timezones import zone_place
from memo.text.wording import quote


@dataclass(frozen=True)
class MoveOffer:
    """One reminder of the question: its title, when it comes (one moment), and the moment it would
    come if moved (the same clock time in the new zone)."""

    title: str
    due_at: datetime
    moved_to: datetime


def zone_move_question(
    language: Language, zone: str, previous: str, offers: list[MoveOffer], more: int
) -> str:
    """ "“call bob” is at 11:15 in New York (18:15 in Israel). Move it to 18:15 New York time?";
    with several, a numbered list; `more` one-time reminders not named keep their moment."""
    here, there = zone_place(zone, language), zone_place(previous, language)
    if len(offers) == 1 and not more:
        offer = offers[0]
        if language == "he":
            return (
                f"התזכורת {quote(offer.title, language)} ב{format_when(offer.due_at, language, zone)} "
                f"לפי השעה ב{here} ({_clock(offer.due_at, previous)} ב{there}). "
                f"להעביר אותה ל-{_clock(offer.moved_to, zone)} בשעון {here}?"
            )
        return (
            f"{quote(offer.title, language)} is at {format_when(offer.due_at, language, zone)} in {here} "
            f"({_clock(offer.due_at, previous)} in {there}). "
            f"Move it to {_clock(offer.moved_to, zone)} {here} time?"
        )
    lines = [
        f"{i}. {quote(o.title, language)} — {format_when(o.due_at, language, zone)} "
        f"({_clock(o.due_at, previous)} {'ב' if language == 'he' else 'in '}{there})"
        for i, o in enumerate(offers, start=1)
    ]
    if language == "he":
        head = f"התזכורות הקרובות שלך, לפי השעה ב{here}:"
        rest = f"\nועוד {more} שנשארות בזמן שנקבע להן." if more else ""
        ask = (
            f"להעביר אותן לאותה שעה בשעון {here}? אפשר גם רק חלק, למשל „רק 1”."
            if len(offers) > 1
            else f"להעביר אותה לאותה שעה בשעון {here}?"
        )
        return "\n".join([head, *lines]) + rest + "\n" + ask
    head = f"Your upcoming reminders, in {here} time:"
    rest = f"\n…and {more} more, which keep their time." if more else ""
    ask = (
        f'Move them to the same clock time in {here}? You can also keep only some, e.g. "only 1".'
        if len(offers) > 1
        else f"Move it to the same clock time in {here}?"
    )
    return "\n".join([head, *lines]) + rest + "\n" + ask


def _clock(value: datetime, zone: str) -> str:
    return f"{value.astimezone(ZoneInfo(zone)):%H:%M}"


@dataclass(frozen=True)
class KeptSeries:
    """A repeating reminder that keeps its clock time in the new zone: its title, how it repeats."""

    title: str
    repeats: str


def kept_local_line(language: Language, zone: str, kept: list[KeptSeries], more: int) -> str:
    """ "Your repeating reminders keep their local time: “take pills” every day at 07:00 New York
    time."; `more` series not named keep theirs too."""
    here = zone_place(zone, language)
    if language == "he":
        named = "; ".join(f"{quote(k.title, language)} {k.repeats} לפי שעון {here}" for k in kept)
        rest = f" (ועוד {more})" if more else ""
        return f"התזכורות החוזרות שלך נשארות בשעה המקומית: {named}{rest}."
    named = "; ".join(f"{quote(k.title, language)} {k.repeats} {here} time" for k in kept)
    rest = f" (and {more} more)" if more else ""
    return f"Your repeating reminders keep their local time: {named}{rest}."
