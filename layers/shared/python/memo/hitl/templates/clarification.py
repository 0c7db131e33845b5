"""Questions that ask for what a request left out or left unclear: a missing time or title, which
capability was meant, which item to act on, and the yes/no check of a plan Memo is unsure of."""

from __future__ import annotations

from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import PendingHITLOption, PlanStep, RoutingSuggestion
from memo.hitl.templates.plan_description import duration_words
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.months import MONTHS_EN, MONTHS_HE
from memo.text.wording import he_list_name

YES_ID = "yes"
NO_ID = "no"

_YES_NO_LABELS: dict[Language, tuple[str, str]] = {"en": ("Yes", "No"), "he": ("כן", "לא")}


def yes_no_options(language: Language) -> list[PendingHITLOption]:
    yes, no = _YES_NO_LABELS[language]
    return [PendingHITLOption(id=YES_ID, label=yes), PendingHITLOption(id=NO_ID, label=no)]


_MISSING_FIELD_QUESTIONS: dict[str, dict[Language, str]] = {
    "reminder_time_required": {
        "en": "When should I remind you? (e.g. “tomorrow at 17:00”)",
        "he": "מתי להזכיר לך? (למשל „מחר ב-17:00”)",
    },
    "reminder_title_required": {"en": "What should I remind you about?", "he": "על מה להזכיר לך?"},
    "note_text_required": {"en": "What should the note say?", "he": "מה לרשום בפתק?"},
    "list_items_required": {"en": "What should I add to the list?", "he": "מה להוסיף לרשימה?"},
    "list_name_required": {"en": "Which list should I add it to?", "he": "לאיזו רשימה להוסיף?"},
    "time_unclear": {"en": "What time do you mean?", "he": "לאיזו שעה התכוונת?"},
    # A time that does not exist ("at 25:00") or has passed ("yesterday"): asked, never guessed.
    "time_invalid": {
        "en": "That time doesn't exist — when should it be? (e.g. “tomorrow at 17:00”)",
        "he": "השעה הזאת לא קיימת — מתי לקבוע? (למשל „מחר ב-17:00”)",
    },
    "time_in_past": {
        "en": "That time has already passed — when should it be? (e.g. “tomorrow at 17:00”)",
        "he": "הזמן הזה כבר עבר — מתי לקבוע? (למשל „מחר ב-17:00”)",
    },
    # A repetition that ends past the bound ("until 2099", "10000 times"): nothing is set, it is asked.
    "repeat_too_long": {
        "en": "That repeats too far ahead or too many times for one reminder, so I haven't set it. "
        "When should it be, and until when? (e.g. “every day at 9 for a month”)",
        "he": "זה חוזר רחוק מדי או יותר מדי פעמים בשביל תזכורת אחת, אז לא קבעתי אותה. "
        "מתי לקבוע, ועד מתי? (למשל „כל יום ב-9 למשך חודש”)",
    },
    # "every 5 months": a repetition no one schedule can keep (a cron's months repeat each year).
    "repeat_unsupported": {
        "en": "I can repeat a reminder every 1, 2, 3, 4, 6 or 12 months, but not that, so I haven't "
        "set it. How often should it be? (e.g. “every 6 months at 9”)",
        "he": "אפשר לחזור כל 1, 2, 3, 4, 6 או 12 חודשים, אבל לא ככה, אז לא קבעתי אותה. "
        "כל כמה זמן לקבוע? (למשל „כל 6 חודשים ב-9”)",
    },
    # "every hour from 10pm to 2am on weekdays": the hours after midnight would come on the wrong mornings.
    "repeat_over_midnight": {
        "en": "Hours past midnight on some days only are something I can't set as one reminder yet (the "
        "hours after midnight would come on the wrong mornings), so I haven't set it. Should it be every "
        "day, or end by midnight? (e.g. “every hour from 10pm to 2am” or “every hour from 8pm to 11pm on "
        "weekdays”)",
        "he": "שעות אחרי חצות רק בחלק מהימים אני עוד לא יודע לקבוע כתזכורת אחת (השעות שאחרי חצות היו "
        "מגיעות בבקרים הלא נכונים), אז לא קבעתי אותה. לקבוע כל יום, או עד חצות? (למשל „כל שעה מ-22 עד 2” "
        "או „כל שעה מ-20 עד 23 בימי חול”)",
    },
    # "on christmas", "before mom's birthday", "בחנוכה": a day no calendar of Memo's places.
    "day_unclear": {
        "en": "Which day is that? (e.g. “on Dec 25 at 9:00”)",
        "he": "איזה יום זה? (למשל „ב-25.12 בשעה 9:00”)",
    },
    # "every march": a yearly reminder needs its day of the month.
    "month_day_required": {"en": "Which day of the month?", "he": "באיזה יום בחודש?"},
    "target_unclear": {"en": "Which one do you mean?", "he": "למה בדיוק התכוונת?"},
    "which_one": {"en": "Which one do you mean?", "he": "לאיזה מהם התכוונת?"},
}

#: How a routing suggestion names its capability. Only the capabilities that need a connected
#: account are named ("did you want to email?"); a suggestion of any other capability is not, and
#: the question offers examples instead.
_SUGGESTED_NAMES: dict[Language, dict[str, str]] = {
    "en": {"calendar": "calendar", "email": "email"},
    "he": {"calendar": "היומן", "email": "המייל"},
}


def intent_unclear_question(language: Language, suggestions: list[RoutingSuggestion]) -> str:
    names = _SUGGESTED_NAMES[language]
    seen: list[str] = []
    for suggestion in sorted(suggestions, key=lambda s: -s.confidence):
        name = names.get(suggestion.capability)
        if name and name not in seen:
            seen.append(name)
    if language == "he":
        if seen:
            return f"לא בטוח שהבנתי — רצית {' או '.join(seen[:2])}? אפשר לנסח במילים אחרות?"
        return "לא בטוח שהבנתי — מה לעשות? למשל לקבוע תזכורת, לשמור פתק או להוסיף לרשימה."
    if seen:
        return f"I'm not sure I understood — did you want to {' or '.join(seen[:2])}? Tell me in other words."
    return (
        "I'm not sure I understood — what would you like me to do? "
        "For example: set a reminder, save a note or add to a list."
    )


def time_on_day_question(language: Language, days: list[str], timezone: str) -> str:
    """The time of a reminder whose day is known: "What time on Fri 27 Nov?"; of one said for
    several days, each in order: "What time on Mon 30 Nov and Wed 2 Dec?"."""
    shown = [format_when(day, language, timezone) for day in sorted(set(days))]
    if language == "he":
        on = [f"ב{one}" for one in shown]
        said = on[0] if len(on) == 1 else f"{', '.join(on[:-1])} ו{on[-1]}"
        return f"באיזו שעה {said}? (למשל „ב-17:00”)"
    said = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
    return f"What time on {said}? (e.g. “at 17:00”)"


def time_of_series_question(language: Language) -> str:
    """The time of a repeating reminder whose days are known ("every Monday", "the 1st of every month")."""
    if language == "he":
        return "באיזו שעה, בכל פעם? (למשל „ב-9:00”)"
    return "At what time, each time? (e.g. “at 9:00”)"


def month_day_question(language: Language, month: int, *, time_known: bool, title_known: bool) -> str:
    """A yearly reminder said by its month alone ("every march at 9"): which day of it, with the time
    and the title when those were not said either."""
    hebrew = language == "he"
    name = (MONTHS_HE if hebrew else MONTHS_EN)[month - 1]
    asks = [f"באיזה יום ב{name}" if hebrew else f"Which day of {name}"]
    example = "ב-5" if hebrew else "the 5th"
    if not time_known:
        asks.append("באיזו שעה" if hebrew else "at what time")
        example += " בשעה 9:00" if hebrew else " at 9:00"
    if not title_known:
        asks.append("על מה להזכיר" if hebrew else "what about")
        example += " לחדש את הביטוח" if hebrew else " to renew the insurance"
    if len(asks) > 1:
        asks[-1] = f"ו{asks[-1]}" if hebrew else f"and {asks[-1]}"
    return f"{', '.join(asks)}? (למשל „{example}”)" if hebrew else f"{', '.join(asks)}? (e.g. “{example}”)"


def shift_direction_question(language: Language, minutes: int, title: object) -> str:
    """ "move it an hour": which way, never guessed."""
    en, he = duration_words(minutes)
    if language == "he":
        what = f"את „{title}”" if isinstance(title, str) and title else "אותה"
        return f"להקדים {what} ב{he} או לדחות ב{he}? (למשל „מאוחר יותר”)"
    what = f"“{title}”" if isinstance(title, str) and title else "it"
    return f"Move {what} {en} earlier or {en} later? (e.g. “later”)"


def which_item_question(language: Language, step: PlanStep) -> str:
    """ "stop reminding me" / "delete it" with nothing to point at: what to name."""
    stops = step.constraints.get("scope") == "series"
    if language == "he":
        what = {"reminders": "איזו תזכורת", "notes": "איזה פתק", "lists": "איזה פריט"}.get(
            step.capability, "מה"
        )
        verb = "להפסיק" if stops else "למחוק" if step.action == "delete" else "לשנות"
        return f"{what} {verb}? אפשר לכתוב מילה מהשם."
    what = {"reminders": "reminder", "notes": "note", "lists": "item"}.get(step.capability, "one")
    verb = "stop" if stops else "delete" if step.action == "delete" else "change"
    return f"Which {what} should I {verb}? A word of its name is enough."


def list_items_question(language: Language, list_name: object, action: str = "add") -> str:
    """What to add to a list named with nothing on it yet ("create a packing list"), or what to take
    off one ("remove something from the shopping list"): the list by name when one was said."""
    named = isinstance(list_name, str) and list_name.casefold() not in ("", UNNAMED_LIST)
    if action == "remove":
        if language == "he":
            return f"מה להוריד מרשימת {he_list_name(str(list_name))}?" if named else "מה להוריד מהרשימה?"
        return (
            f"What should I take off your {list_name} list?" if named else "What should I take off the list?"
        )
    if not isinstance(list_name, str) or not named:
        return _MISSING_FIELD_QUESTIONS["list_items_required"][language]
    if language == "he":
        return f"מה להוסיף לרשימת {he_list_name(list_name)}?"
    return f"What should I add to your {list_name} list?"


def missing_fields_question(language: Language, missing: list[str]) -> str:
    if "reminder_title_required" in missing and "reminder_time_required" in missing:
        if language == "he":
            return "על מה להזכיר לך, ומתי? (למשל „להתקשר לאמא מחר ב-17:00”)"
        return "What should I remind you about, and when? (e.g. “call mom tomorrow at 17:00”)"
    for field in missing:
        if field in _MISSING_FIELD_QUESTIONS:
            return _MISSING_FIELD_QUESTIONS[field][language]
    return "חסר לי פרט — אפשר להשלים?" if language == "he" else "I need one more detail — can you fill it in?"


def low_confidence_question(language: Language, summary: str) -> str:
    if language == "he":
        return f"רק מוודא — {summary}?"  # "רק מוודא — לשמור את הפתק „...”?"
    return f"Just to check — you want me to {summary}?"


def ambiguous_scope_question(language: Language, summary: str) -> str:
    if language == "he":
        return f"לא ברור לי על מה בדיוק {summary} — תוכל לפרט?"
    return f"I'm not sure exactly what to include when I {summary} — can you say more precisely?"


_SCOPE_NOUNS: dict[str, tuple[str, str, str]] = {
    # capability: (en plural, he plural, he "all of them")
    "reminders": ("reminders", "תזכורות", "כולן"),
    "notes": ("notes", "פתקים", "כולם"),
}


def scope_question(language: Language, capability: str, lines: list[str], total: int) -> str:
    """A request to take items away that did not say which ("delete my reminders") and matches
    several: all of them, or which ones (numbered, so that an answer may name some)."""
    en_many, he_many, he_all = _SCOPE_NOUNS.get(capability, ("items", "פריטים", "כולם"))
    listing = "\n".join(lines)
    more = total - len(lines)
    if language == "he":
        rest = f"\n…ועוד {more}." if more > 0 else ""
        return (
            f"את כל {total} ה{he_many}, או אילו מהן?\n{listing}{rest}\n"
            f"אפשר לענות „{he_all}”, או במספרים או בשמות (למשל „1 3”)."
        )
    rest = f"\n…and {more} more." if more > 0 else ""
    return (
        f"All {total} {en_many}, or which ones?\n{listing}{rest}\n"
        'You can answer "all", or with numbers or names (e.g. "1 3").'
    )
