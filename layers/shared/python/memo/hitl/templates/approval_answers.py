"""What Memo says back to an answer to an approval that it cannot run as said: an Edit that asks
what to change (or makes no sense for the action), a "keep only some" it cannot read, items that
changed since the question, and a rejection with its reason."""

from __future__ import annotations

from memo.domain import PlanStep
from memo.text.language import Language
from memo.text.wording import quote


def edit_prompt(language: Language, *, removal: bool = False, skip: bool = False) -> str:
    """What Edit asks next; for a delete (`removal`), which of the shown items to keep; for the skip
    of a series' times (`skip`), which to skip (a skip has no time or title to change)."""
    if skip:
        if language == "he":
            return "מה לשנות? בדילוג אפשר רק לדלג על פחות: למשל „רק 1” או „חוץ מ-2”. אפשר גם לאשר, או לבטל."
        return 'What should I change? A skip can only skip fewer: for example "only 1" or "not 2". You can also approve it, or cancel.'
    if removal:
        if language == "he":
            return "מה לשנות? אפשר להשאיר חלק: למשל „תשאיר את 2” או „אל תמחק את אבא”, או „רק 1” כדי למחוק רק אותה."
        return (
            'What should I change? You can keep some: for example "keep 2" or "don\'t delete dad", '
            'or "only 1" to delete just that one.'
        )
    if language == "he":
        return "מה לשנות? למשל „תשנה את השעה ל-18:00” או „תשנה את השם ל...”."
    return 'What should I change? For example "change the time to 6pm" or "change the title to ...".'


def edit_not_applicable(step: PlanStep, fields: list[str], language: Language, *, skip: bool = False) -> str:
    """An edit that makes no sense for the action (a new time for a delete, or for the skip of a
    series' times: `skip`): explained, never run."""
    timely = any(f in ("when", "day", "time", "date", "recurrence", "duration") for f in fields)
    deleting = step.action in ("delete", "delete_all")
    if language == "he":
        what = "דילוג" if skip else "מחיקה" if deleting else "ניקוי" if step.action == "clear" else "הסרה"
        reason = f"ל{what} אין שעה לשנות." if timely else f"את זה אי אפשר לשנות ב{what}."
        done = "לא שיניתי ולא דילגתי על כלום." if skip else "לא שיניתי ולא מחקתי כלום."
        return f"{reason} {done} אפשר לאשר, לדחות, או להשאיר רק חלק (למשל „רק 1” או „חוץ מ-2”)."
    what = (
        "a skip"
        if skip
        else "a delete"
        if deleting
        else "clearing a list"
        if step.action == "clear"
        else "a removal"
    )
    reason = f"There's no time to change on {what}." if timely else f"That can't be changed on {what}."
    done = "Nothing was changed or skipped." if skip else "Nothing was changed or deleted."
    return f'{reason} {done} You can approve, reject, or keep only some (e.g. "only 1" or "not 2").'


def no_time_to_change(step: PlanStep, language: Language) -> str:
    """A time said to a question about a list or a note ("change eggs to 12 eggs" read "12" as
    noon): nothing of it has a time, so nothing was done."""
    if language == "he":
        what = "לרשימה" if step.capability == "lists" else "לפתק"
        return f"{what} אין שעה לשנות, אז לא עשיתי כלום."
    what = "a list" if step.capability == "lists" else "a note"
    return f"There's no time to change on {what}, so I haven't done anything."


def narrowing_unclear(language: Language) -> str:
    if language == "he":
        return "לא הבנתי אילו מהם להשאיר, אז לא עשיתי כלום. אפשר לענות במספרים, למשל „רק 1 ו-3”."
    return "I couldn't tell which of them you mean, so I haven't done anything. You can answer with numbers, e.g. \"only 1 and 3\"."


def one_time_of_a_series(language: Language) -> str:
    """A day said to the delete of a repeating reminder ("only tomorrow"): one of its times, while
    the delete takes the whole series."""
    if language == "he":
        return "זו פעם אחת של תזכורת חוזרת, והמחיקה הזאת מוחקת את כל הסדרה, אז לא עשיתי כלום. כדי לדלג רק על הפעם ההיא, אפשר לכתוב למשל „תדלג על מחר”."
    return "That's one time of a repeating reminder, and this deletes the whole series, so I haven't done anything. To skip just that time, say e.g. \"skip tomorrow\"."


def number_item_or_button(language: Language, number: int, label: str) -> str:
    """A bare number to an approval that is both an item it lists and one of its buttons."""
    if language == "he":
        return (
            f"לא ברור לי אם {number} הוא פריט {number} ברשימה או הכפתור „{label}”, אז לא עשיתי כלום. "
            f"אפשר לכתוב „רק {number}” כדי להשאיר רק אותו, או „{label}”."
        )
    return (
        f"I can't tell whether {number} means item {number} or the “{label}” button, so I haven't done "
        f'anything. Write "only {number}" to keep just that item, or "{label.casefold()}".'
    )


def narrowing_with_the_rest(language: Language) -> str:
    """An answer that keeps some items of an approval whose plan does more ("Along with it: ..."):
    whether the rest still runs is not said, so nothing is guessed."""
    if language == "he":
        return (
            "לא ברור לי אם שאר הבקשה עדיין בתוקף, אז לא עשיתי כלום. "
            "אפשר לאשר את הכול, או לדחות ולשלוח כל בקשה בנפרד."
        )
    return (
        "I can't tell whether the rest of the request still stands, so I haven't done anything. "
        "You can approve all of it, or reject and send each request on its own."
    )


def limit_unclear(words: str, language: Language) -> str:
    """ "Delete all my reminders except the blue one": the limit picks none of the items."""
    if language == "he":
        return f"לא מצאתי אילו מהם „{words}”, אז לא עשיתי כלום. אפשר לבקש לראות אותם ולבחור."
    return f"I couldn't tell which of them “{words}” means, so I haven't done anything. You can ask to see them and pick."


def names_not_found(found: list[str], missing: list[str], language: Language) -> str:
    """A request whose own words pick nothing ("delete everything on friday" with nothing then), or
    that names several things of which some match nothing ("delete the bank and the windows
    reminders"): what was found and what was not; nothing runs until it is said again."""
    if language == "he":
        gone = " או ".join(quote(name, language) for name in missing)
        if not found:
            return f"לא מצאתי כלום עבור {gone}, אז לא עשיתי כלום."
        have = ", ".join(quote(label, language) for label in found)
        return f"מצאתי את {have}, אבל כלום עבור {gone}, אז לא עשיתי כלום. אפשר לכתוב שוב מה למחוק."
    gone = " or ".join(quote(name, language) for name in missing)
    if not found:
        return f"I found nothing for {gone}, so I haven't done anything."
    have = ", ".join(quote(label, language) for label in found)
    return f"I found {have}, but nothing for {gone}, so I haven't done anything. Tell me again which ones to delete."


def kept_all(language: Language) -> str:
    """An answer to an approval that keeps every item ("keep grandma", the only one; "not 1 2 3"):
    nothing is left to do, so the question is closed as a no."""
    if language == "he":
        return "זה לא משאיר אף פריט, אז ביטלתי. לא שיניתי כלום."
    return "That leaves nothing to do, so I've cancelled it. Nothing was changed."


def narrowing_empty(language: Language) -> str:
    if language == "he":
        return "זה לא משאיר אף פריט, אז לא עשיתי כלום."
    return "That leaves nothing, so I haven't done anything."


def items_changed(gone: list[str], renamed: list[tuple[str, str]], language: Language) -> str:
    """What changed since the question was asked: said before the question is asked again."""
    parts: list[str] = []
    for label in gone:
        parts.append(
            f"{quote(label, language)} נמחק בינתיים"
            if language == "he"
            else f"{quote(label, language)} was deleted meanwhile"
        )
    for old, new in renamed:
        parts.append(
            f"{quote(old, language)} נקרא עכשיו {quote(new, language)}"
            if language == "he"
            else f"{quote(old, language)} is now called {quote(new, language)}"
        )
    joined = "; ".join(parts)
    if language == "he":
        return f"משהו השתנה מאז ששאלתי ({joined}), אז לא עשיתי כלום ובדקתי שוב."
    return f"Something changed since I asked ({joined}), so I haven't done anything and looked again."


def rejected_with_reason(language: Language) -> str:
    if language == "he":
        return "בסדר, ביטלתי. לא שיניתי כלום. תודה שהסברת — רשמתי את זה."
    return "OK, cancelled. Nothing was changed. Thanks for telling me why — I've noted it."


def series_left_out(titles: list[str], day: str, language: Language, *, alone: bool = False) -> str:
    """ "delete all my reminders for tomorrow" with a daily reminder among them: it is left out,
    since a delete stops a series for good; a skip of `day` (the words said) takes only that day
    (`alone`: nothing else was there, so nothing runs)."""
    names = ", ".join(quote(t, language) for t in titles)
    several = len(titles) > 1
    if language == "he":
        said = (
            f"את {names} לא מחקתי: {'הן חוזרות' if several else 'היא חוזרת'}, ומחיקה הייתה עוצרת"
            f" {'אותן' if several else 'אותה'} לגמרי. כדי לדלג רק על {day}, כתבו למשל „תדלג על {titles[0]} {day}”."
        )
        return said + (" לא מחקתי כלום." if alone else "")
    said = (
        f"I've left out {names}: {'they repeat' if several else 'it repeats'}, and a delete would stop"
        f" {'them' if several else 'it'} for good. To skip only {day}, say e.g. “skip {titles[0]} {day}”."
    )
    return said + (" Nothing was deleted." if alone else "")
