"""Corrections said right after something was done: "oops i meant tomorrow", "no, call dad
instead", "התכוונתי למחר", and "actually it's sunshine43" for the note just saved."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memo.capabilities.notes import has_a_value, note_subject, revised_text
from memo.domain import LatestAction
from memo.planner.base import PlannerInput
from memo.planner.intents.reminders import after_remind_words
from memo.planner.lexicon import BARE_HOUR, as_title, clean, has_hebrew, named_in
from memo.planner.match import GUESS, REFERENTIAL, SHOWN_ONLY, Match, latest_action, parse_when
from memo.planner.timeparse import extract_when

#: Twelve hours: how recent a saved note is for "actually it's X" to correct it, and how soon a
#: reminder is due for "make it 45 minutes" to count from now (`followups`).
SOON = timedelta(hours=12)

#: A correction of the time just set: "oops i meant tomorrow", "no, at 6", "sorry, 8pm", "actually
#: tomorrow", "התכוונתי למחר", "טעיתי, בשש".
_CORRECTION = re.compile(
    r"^(?:(?:oops|oh|no|nope|sorry|my\s+bad|אופס|לא|סליחה|טעיתי)[\s,!.]+)*"
    r"(?:i\s+meant|i\s+mean|meant|i\s+said|התכוונתי|הכוונה)\s*(?:ל-?(?=\S))?(?P<rest>\S.*)$"
    # "no wait, 9pm", "no no, 9pm", "לא רגע, ב-9": the lead words, however many
    r"|^(?:oops|no|nope|sorry|my\s+bad|אופס|לא|סליחה|טעיתי)[\s,!.]+(?:(?:wait|no|רגע|לא)[\s,!.]+)*(?P<rest2>\S.*)$",
    re.I,
)
_SAID_ACTUALLY = re.compile(
    r"^\W*(?:actually|wait|sorry|oops|no|nope|my\s+bad|בעצם|רגע|סליחה|אופס|טעיתי)(?=[\s,!.]|$)", re.I
)


#: More words that only lead a correction in: "no wait, call dad instead".
_LEADS = re.compile(
    r"^(?:(?:wait|no|nope|actually|oops|sorry|hmm|רגע|לא|בעצם|אופס|סליחה)(?:[\s,!.:;-]+|$))+", re.I
)
#: The verbs of Memo's own commands: words that start with one ask for something ("add eggs",
#: "delete the milk", "תוסיף ביצים"); they are no title.
_COMMAND = re.compile(
    r"^(?:add|delete|remove|cancel|save|undo|"
    r"תוסיף|תוסיפי|תמחק|תמחקי|תבטל|תבטלי|תרשום|תרשמי|תשמור|תשמרי)(?=\s|$)"
    # "make it 6pm instead", "change it to saturday instead": a change of the thing, never its title
    r"|^(?:make|change|move|set|push|switch|put|turn)\s+(?:it|that|this|the\s+time|the\s+day)(?=\s|$)"
    r"|^(?:תעשה|תעשי|תשנה|תשני|תזיז|תזיזי|תעביר|תעבירי|תקבע|תקבעי)\s+(?:את\s+)?(?:זה|זאת|אותה|אותו)(?=\s|$)",
    re.I,
)


#: "no, call dad instead", "i meant call dad", "לא, להתקשר לאבא במקום": the words that replace.
_INSTEAD = re.compile(
    r"^(?:instead[\s,:]+)?(?P<new>\S.*?)(?:[\s,]+instead(?:\s+of\s+.+)?|\s+במקום(?:\s+זה)?)?\s*[.!]?$",
    re.I,
)
_INSTEAD_WORD = re.compile(r"(?:^|[\s,]+)instead(?!\s+of)\b|(?:^|\s+)במקום(?:\s+זה)?(?=\s|$)", re.I)
_SAYS_INSTEAD = re.compile(r"\binstead\b|\sבמקום(?:\s|$)", re.I)
_MEANT = re.compile(
    r"^(?:(?:oops|oh|no|nope|sorry|my\s+bad|אופס|לא|סליחה|טעיתי)[\s,!.]+)*(?:i\s+meant|התכוונתי)(?=[\s,:]|$)",
    re.I,
)


def names_a_time(words: str, now: datetime) -> bool:
    """ "to half an hour from now", "בשש", "the evening": a time (read or only hinted, as said at
    `now`), never a title."""
    if _TIMEISH.search(words):
        return True
    hebrew = has_hebrew(words)
    if extract_when(words, now=now, timezone="UTC", language="he" if hebrew else "en").found:
        return True
    return spoken_clock(words, now) is not None


_LEADING_TO = re.compile(r"^(?:to|at|for)\s+", re.I)


def spoken_clock(words: str, now: datetime) -> str | None:
    """ "nine", "to nine thirty", "eleven fifteen": a clock time in English words and nothing else,
    as "at nine thirty" (which reads as the time); None for anything more ("seven apples")."""
    if has_hebrew(words):
        return None
    bare = "at " + _LEADING_TO.sub("", words.strip())
    spoken = extract_when(bare, now=now, timezone="UTC", language="en")
    return bare if spoken.when is not None and not clean(spoken.remainder) else None


def replacement_title(text: str, *, with_time: bool = False, now: datetime | None = None) -> str | None:
    """ "no, call dad instead", "i meant call dad", "לא, להתקשר לאבא במקום": the title that replaces
    the one just given; None when the words do not say they replace, or name a time ("i meant
    tomorrow" moves, `correction`) unless `with_time` ("i meant call mom tomorrow"). Telling a time
    from a title needs `now`, the time the words were said (not needed `with_time`)."""
    meant = _MEANT.match(text)
    if meant is not None:
        rest = text[meant.end() :].strip(" ,:")  # "התכוונתי להתקשר לאבא": the title keeps its "ל"
    else:
        found = _CORRECTION.match(text)
        rest = (found.group("rest") or found.group("rest2")) if found else text
        if not _SAYS_INSTEAD.search(rest):
            return None
    rest = _LEADS.sub("", rest).strip() if rest else rest  # "no wait, call dad instead"
    if not rest or _COMMAND.match(rest):
        return None  # "no, delete the milk instead": a request of its own, never a title
    if not with_time:
        if now is None:
            raise ValueError("now is needed to tell a time from a title")
        if names_a_time(rest, now):
            return None
    replaced = _INSTEAD.match(rest)
    words = _INSTEAD_WORD.sub(" ", replaced.group("new")) if replaced else ""
    new = as_title(after_remind_words(clean(words))) if clean(words) else ""
    return new or None


def correction(text: str, inp: PlannerInput) -> str | None:
    """A correction right after a reminder was set, when the latest thing done is that reminder:
    "i meant tomorrow" -> "move it tomorrow" (only a time or day); "no, call dad instead" or "i
    meant call dad" -> "change it to call dad" (`replacement_title`)."""
    latest = latest_action(inp)
    if latest is None or latest.capability != "reminders":
        return None
    later = _week_later(text, latest, inp)
    if later is not None:
        return later  # "no, the one after" right after "next tuesday" was set for tomorrow
    found = _CORRECTION.match(text)
    rest = (found.group("rest") or found.group("rest2")) if found else None
    swapped = _time_not_that(text, inp)
    if swapped is not None:
        return f"move it {swapped}"  # "oops, tuesday not monday", "שלישי ולא שני"
    if rest is None and _SAID_ACTUALLY.match(inp.message):
        rest = text  # "actually tomorrow": the lead-in word is already set aside
    if rest is None and _SAYS_INSTEAD.search(text):
        rest = _INSTEAD_WORD.sub(" ", text).strip(" ,.!")  # "6pm instead", "saturday instead"
        if _COMMAND.match(rest):
            return None  # "make it 6pm instead": the change said whole, read as it is
    if rest is not None:
        rest = _INSTEAD_WORD.sub(" ", rest).strip(" ,.!") or rest  # "actually 6pm instead"
        parsed = parse_when(f"at {rest}" if BARE_HOUR.match(rest) else rest, inp)
        if parsed.found and not re.sub(r"[\W_]+", "", parsed.remainder):
            return f"move it {rest}"
        if parsed.found:
            return None  # a new title with a time in it: asked
    new = replacement_title(text, now=inp.now)
    if new and _MEANT.match(text):
        new = in_its_place(latest, new)  # "i meant dad" after “call mom”: “call dad”
    return f"change it to {new}" if new else None


#: "no, the one after", "the week after", "לא, בשבוע שאחרי": the reminder just set, a week later.
ONE_AFTER = re.compile(
    r"^(?:(?:no|nope|oops|sorry|wait|actually|לא|אופס|רגע|בעצם)[\s,!.]+)*"
    r"(?:(?:i\s+meant\s+)?(?:the\s+)?(?:one|week)\s+after(?:\s+that)?|a\s+week\s+later|(?:התכוונתי\s+)?(?:ב?שבוע\s+שאחרי|לזה\s+שאחרי|זה\s+שאחרי))"
    r"\s*[.!]*$",
    re.I,
)


def _week_later(text: str, latest: LatestAction, inp: PlannerInput) -> str | None:
    """ "move it <the same time a week later>" for "no, the one after" said of a one-time reminder
    just set or moved; None otherwise."""
    if not ONE_AFTER.match(text.strip()) or latest.when is None or latest.action not in ("create", "update"):
        return None
    if re.search(r"\bevery\b|(?:^|\s)כל\s", _QUOTED.sub("", latest.summary), re.I):
        return None  # a series ("… every day at 8", its title aside) has no "one after": asked as usual
    moved = latest.when.astimezone(ZoneInfo(inp.timezone)) + timedelta(weeks=1)
    return f"move it {moved:%Y-%m-%d} at {moved:%H:%M}"


#: "the electrician", "my son", "a haircut": a thing said with its determiner.
_THING = re.compile(r"^(?P<det>the|my|a|an|our|his|her|their|your)\s+(?P<word>[^\W\d]+)$", re.I)
#: "הבן שלי", "לבן שלי", "את הבן שלי": a thing of one's own, in Hebrew (the noun without its ה).
_HE_MINE = re.compile(r"^(?:ל|את\s+)?ה?(?P<noun>[\u05d0-\u05ea]{2,})\s+שלי$")
_HE_MINE_IN = re.compile(r"(?:(?<=\s)|(?<=^))(?P<the>ה)?(?P<noun>[\u05d0-\u05ea]{2,})(?=\s+שלי(?:\s|$))")
#: A title as a latest action's summary quotes it: “call the plumber”, „להתקשר לאינסטלטור”.
_QUOTED = re.compile(r"[“„\"](?P<title>[^”\"]+)[”\"]")


def in_its_place(latest: LatestAction, new: str) -> str:
    """A thing said to replace one in the title just given takes its place there: "i meant the
    electrician" after “call the plumber” is “call the electrician”, "make it my son" after “pick up
    my daughter from school” is “pick up my son from school”. Anything else is the whole new title."""
    thing, quoted = _THING.match(new.strip()), _QUOTED.search(latest.summary)
    mine = _HE_MINE.match(new.strip())
    if mine is not None and quoted is not None:
        # "התכוונתי לבן שלי" after „לאסוף את הבת שלי”: „לאסוף את הבן שלי”
        held = _HE_MINE_IN.search(quoted.group("title"))
        if held is None:
            return new
        noun = ("ה" if held.group("the") else "") + mine.group("noun")
        title = quoted.group("title")
        return title[: held.start("the")] + noun + title[held.end("noun") :]
    if thing is None and quoted is not None:
        return _one_word_in_place(quoted.group("title"), new.strip())
    if thing is None or quoted is None:
        return new
    title = quoted.group("title")
    said = re.search(rf"\b{thing.group('det')}\s+[^\W\d]+", title, re.I)
    if said is None:
        return new
    return title[: said.start()] + new.strip() + title[said.end() :]


def _one_word_in_place(title: str, new: str) -> str:
    """One word said for a title of a verb and one word: its word ("dad" after “call mom”: “call
    dad”; "לאבא" or "אבא" after „להתקשר לאמא”: „להתקשר לאבא”). Anything else: the whole new title."""
    words = title.split()
    if len(words) != 2 or not re.fullmatch(r"[^\W\d_]+", new) or new.lower() == words[0].lower():
        return new
    if has_hebrew(new) and words[1].startswith("ל") and not new.startswith("ל"):
        new = f"ל{new}"
    return f"{words[0]} {new}"


#: "tuesday not monday", "oops, 6pm not 5pm", "not monday, tuesday", "שלישי ולא שני", "לא בשני, בשלישי"
_NOT_THAT = re.compile(
    r"^(?:(?:oops|oh|no|sorry|my\s+bad|wait|אופס|סליחה|טעיתי|רגע)[\s,!.]+)*"
    r"(?:(?P<new>[^,]+?)[\s,]+(?:and\s+)?(?:not|ולא)\s+(?P<old>[^,]+?)"
    r"|(?:not|לא)\s+(?P<old2>[^,]+?)[\s,]+(?:but\s+|אלא\s+)?(?P<new2>[^,]+?))\s*[.!]?$",
    re.I,
)


def _time_not_that(text: str, inp: PlannerInput) -> str | None:
    """The time in "X not Y" when both X and Y are times or days (the one said first is the new
    one, or the one after "not Y,"): the words of X as the time parser reads them; None otherwise."""
    found = _NOT_THAT.match(text.strip())
    if found is None:
        return None
    new, old = found.group("new") or found.group("new2"), found.group("old") or found.group("old2")
    said_new, said_old = _as_a_time(new, inp), _as_a_time(old, inp)
    return said_new if said_new is not None and said_old is not None else None


def _as_a_time(words: str, inp: PlannerInput) -> str | None:
    """`words` as a time said alone ("tuesday", "6pm"; in Hebrew a weekday or an hour with its ב:
    "שלישי" -> "ביום שלישי"), or None when they are not a time and nothing else."""
    words = words.strip(" ,.!")
    ways = [words, f"at {words}"] if not has_hebrew(words) else [words, f"ביום {words}", f"ב{words}"]
    for way in ways:
        parsed = parse_when(way, inp)
        if parsed.found and parsed.problem is None and not re.sub(r"[\W_]+", "", parsed.remainder):
            return way
    return None


#: Words of a time the parser did not read ("change it to the evening"): never a new title.
_TIMEISH = re.compile(
    r"\d|\b(?:morning|afternoon|evening|night|noon|midnight|today|tonight|tomorrow|tmrw|week|weekend|month|"
    r"year|day|daily|weekly|monthly|later|earlier|sooner|am|pm|o'?clock|hour|minutes?|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b|"
    r"בוקר|ערב|לילה|צהריים|צהרים|מחר|היום|הערב|שבוע|חודש|שנה|יום|שעה|דקות|מאוחר|מוקדם",
    re.I,
)


#: "actually it's sunshine43", "no, it's 4312", "sorry, it is X", "בעצם זה X", "לא, זה X": the
#: note just saved, said again.
_NOTE_SAID_AGAIN = re.compile(
    r"^\W*(?:(?:actually|oops|no|nope|sorry|my\s+bad|wait|correction|בעצם|אופס|לא|סליחה|טעיתי|רגע|תיקון)[\s,!.:-]+)+"
    r"(?:it'?s|it\s+is|its|that'?s|that\s+is|זה|הוא|היא)\s+(?P<value>\S.*?)\s*[.!]?$",
    re.I,
)


#: "no it's actually 4312", "it's really 4312": the value, without the word that hedges it.
_STILL_HEDGING = re.compile(r"^(?:actually|really|in\s+fact|באמת|בעצם)[\s,]+", re.I)


def note_said_again(text: str, inp: PlannerInput) -> Match | None:
    """ "save a note: wifi password is sunshine42" -> "actually it's sunshine43": that note, its value
    replaced ("wifi password is sunshine43", approved first). "the school play is on the 20th" ->
    "actually the school play is on the 21st": the note said again by its subject, offered as that
    note's new text. Only right after a note was saved (notes only looked at since count as right
    after: "where did i park?" -> the note -> "actually it's level 3")."""
    latest = next(
        (a for a in inp.latest_actions if not (a.capability == "notes" and a.action in SHOWN_ONLY)), None
    )
    if latest is None or (latest.capability, latest.action) != ("notes", "save"):
        return None
    if inp.now - latest.created_at > SOON:
        return None
    saved = named_in(latest.summary)
    said = _NOTE_SAID_AGAIN.match(inp.message.strip()) or _NOTE_SAID_AGAIN.match(text)
    if said is None:
        return _subject_said_again(saved, inp.message, text)
    value = _STILL_HEDGING.sub("", said.group("value")).strip()
    if has_a_value(saved):
        changes: dict[str, object] = {"text": value}
    else:
        # "buy a gift for dana" -> "actually it's for noa": which words it replaces is a guess, so the
        # note as it would then read is asked about first, and exactly that is written ("whole"; the
        # saved text may also be cut short in the summary, so its value part is not looked for).
        changes = {"text": value, "whole": True}
    return _note_update(saved, changes)


def _note_update(saved: str, changes: dict[str, object]) -> Match:
    return Match(
        capability="notes",
        action="update",
        confidence=REFERENTIAL if "whole" not in changes else GUESS,
        risk="medium",
        constraints={"targetRef": "latest_action", "target": saved},
        changes=changes,
        pattern="ref:note_said_again",
    )


#: "actually the school play is on the 21st", "בעצם ההצגה ב-21": correction words, then the rest.
_CORRECTED = re.compile(
    r"^\W*(?:(?:actually|oops|sorry|my\s+bad|wait|correction|בעצם|אופס|סליחה|טעיתי|רגע|תיקון)[\s,!.:-]+)+"
    r"(?:no[\s,!.:-]+|לא[\s,!.:-]+)?(?P<rest>\S.*?)\s*[.!]?$",
    re.I,
)
#: Leading words that name nothing by themselves: "the", "my".
_ARTICLE = re.compile(r"^(?:the|my|our)\s+", re.I)
#: What joins a subject to its value: "is", "are", ":", "=", "הוא", "היא", "זה".
_VALUE_LEAD = re.compile(r"^(?:(?:is|are|was|הוא|היא|זה)(?=\s)|[:=])\s*", re.I)


def _subject_said_again(saved: str, message: str, text: str) -> Match | None:
    """ "the school play is on the 20th" -> "actually the school play is on the 21st" (or "... on
    the 21st", "בעצם ההצגה ב-21" for "ההצגה ב-20"): the saved note's subject said again with a new
    value, in a message that says it corrects. `text` is the clause read (the message may hold
    several); the note as it would then read is asked about first, and exactly that is written."""
    if _CORRECTED.match(message.strip()) is None or saved.endswith("…"):
        return None  # no correction; or a note cut short in the summary, what it reads after unknown
    lead = _CORRECTED.match(text.strip())
    new = _revised_by_subject(saved, lead.group("rest") if lead else text.strip())
    if new is None or new.casefold() == saved.casefold():
        return None
    return _note_update(saved, {"text": new, "whole": True})


def _revised_by_subject(saved: str, rest: str) -> str | None:
    """The note `saved` with `rest` said of it, when `rest` starts with the note's subject (its
    words before "is" / ":", or, for a note with no such part, its first word); None otherwise."""
    subject = note_subject(saved)
    if subject is not None:
        words = _ARTICLE.sub("", subject).casefold()
        body = _ARTICLE.sub("", rest)
        after = body[len(words) :]
        joined = after[:1].isspace() or after[:1] == ":"
        if not words or not body.casefold().startswith(words) or not joined:
            return None
        value = _VALUE_LEAD.sub("", after.strip()).strip()
        return revised_text(saved, value) if value else None
    note_words, said_words = saved.split(), rest.split()
    first = note_words[0] if note_words else ""
    # The same note said again is about as long as it ("ההצגה בעשרים" -> "ההצגה בעשרים ואחד"); much
    # shorter or longer, it is another thing that starts with the same word.
    if (
        len(first) < 3
        or len(said_words) < 2
        or not -1 <= len(said_words) - len(note_words) <= 2
        or said_words[0].casefold() != first.casefold()
        or _COMMAND.match(rest)
    ):
        return None
    return revised_text(saved, rest)
