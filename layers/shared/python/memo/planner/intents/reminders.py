"""Reminder commands: list, create, rename, move, delete, and deleting every reminder or note."""

from __future__ import annotations

import re
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from memo.domain import Capability
from memo.planner.base import PlannerInput
from memo.planner.intents.daily import listing
from memo.planner.lexicon import (
    BARE_HOUR,
    DELETE_EN,
    DELETE_HE,
    FORGET_EN,
    HOW_MANY,
    MOVE_EN,
    MOVE_HE,
    NOTE_EN,
    NOTE_HE,
    REMINDER_EN,
    REMINDER_HE,
    as_title,
    clean,
    has_hebrew,
    limit_of,
    strip_lead,
    the_one_named,
)
from memo.planner.match import (
    CONFIDENT,
    GUESS,
    REFERENTIAL,
    Match,
    is_ref,
    iso,
    latest_action,
    parse_when,
    shift_of,
    target_constraints,
)

_RE_DELETE_ALL = (
    re.compile(
        rf"^(?:{DELETE_EN})\s+(?:all|every|each|everything)(?:\s+of)?(?:\s+(?:my|the))?\s+(?P<what>{REMINDER_EN}|{NOTE_EN})\b",
        re.I,
    ),
    re.compile(r"^(?:clear|wipe)\s+(?:out\s+)?(?:my|the|all)\s+(?P<what>reminders|notes)\b", re.I),
    re.compile(
        rf"^(?:{DELETE_HE})\s+(?:לי\s+)?(?:את\s+)?(?:כל|כול)\s+(?P<what>{REMINDER_HE}|{NOTE_HE})",
    ),
    re.compile(r"^(?:תנקה|נקה|לנקות)\s+(?:לי\s+)?(?:את\s+)?(?P<what>התזכורות|הפתקים|ההערות)"),
)


def _what_capability(word: str) -> Capability:
    return "reminders" if re.search(r"remind|תזכור", word, re.I) else "notes"


def delete_all(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_DELETE_ALL:
        match = pattern.search(text)
        if match:
            return Match(
                capability=_what_capability(match.group("what")),
                action="delete_all",
                confidence=CONFIDENT,
                risk="high",
                # "... except call mom", "... for tomorrow": never all of them.
                constraints=dict(limit_of(text[match.end() :])),
                needs_approval=True,
                pattern="delete_all",
            )
    return None


#: "delete my reminders for tomorrow", "cancel tomorrow's reminders", "delete both reminders about
#: mom", "delete my notes about work", "תמחק את התזכורות של מחר": the plural with words that pick
#: some out, a "delete all" limited to them (each shown in the approval, none run unshown).
_RE_DELETE_SOME = (
    re.compile(
        rf"^(?:{DELETE_EN})\s+(?:both\s+(?:of\s+)?)?(?:all\s+(?:of\s+)?)?(?:(?:my|the|those|these)\s+)?"
        r"(?:(?P<pre>[\w'’-]+(?:'s|’s))\s+)?(?P<what>reminders|notes|memos)\b(?P<tail>.*)$",
        re.I,
    ),
    re.compile(
        r"^(?:תמחק|תמחקי|מחק|תבטל|תבטלי|בטל|תסיר|תסירי)\s+(?:לי\s+)?(?:את\s+)?(?P<what>התזכורות|הפתקים|ההערות)(?P<tail>\s.*)$"
    ),
)


def delete_some(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_DELETE_SOME:
        match = pattern.search(text)
        if match is None:
            continue
        pre = match.groupdict().get("pre")
        limit = {"only": pre} if pre else limit_of(match.group("tail"))
        if not limit:
            return None  # "delete my reminders": no words that pick some out (asked as before)
        return Match(
            capability=_what_capability(match.group("what")),
            action="delete_all",
            confidence=CONFIDENT,
            risk="high",
            constraints=dict(limit),
            needs_approval=True,
            pattern="delete_all",
        )
    return None


_RE_REMINDER_LIST = (
    re.compile(
        rf"^(?:what|which|show|list|see|view|get|tell|read|give|check|do i have|any|are there|what's|whats|how\s+many)\b.*\b{REMINDER_EN}\b",
        re.I,
    ),
    re.compile(rf"^(?:my|all(?:\s+my)?)\s+{REMINDER_EN}\b", re.I),
    re.compile(rf"^{REMINDER_EN}\s*\??$", re.I),
    re.compile(r"^(?:מה|אילו|איזה|אלו|תראה|תראי|הראה|תציג|תציגי|תגיד|תפרט|יש לי|רשימת|כל|כמה)\b.*תזכורות"),
    re.compile(r"^(?:ה)?תזכורות\s+(?:שלי|להיום|למחר)"),
)


#: "what did I ask you to remind me about?", "what are you reminding me about?", "על מה ביקשתי
#: שתזכיר לי?": a question about the reminders, though it says "remind me".
_RE_ASKED_TO_REMIND = re.compile(
    r"^(?:what|which\s+things?)\s+(?:did|have)\s+i\s+(?:ask(?:ed)?|tell|told)\s+you\s+to\s+remind\s+me(?:\s+(?:about|of))?\b"
    r"|^what\s+(?:are|were)\s+you\s+(?:reminding|supposed\s+to\s+remind)\s+me\b"
    r"|^what\s+am\s+i\s+supposed\s+to\s+remember\b"
    r"|^על\s+מה\s+(?:ביקשתי|אמרתי\s+לך)\s+ש?(?:תזכיר|להזכיר)\s+לי",
    re.I,
)


#: "when is the rent reminder?", "what time is my reminder about mom?", "מתי התזכורת של השכירות?"
_RE_WHEN_IS = re.compile(
    r"^(?:when(?:'s|’s|\s+is|\s+was)?|what\s+time\s+is|at\s+what\s+time\s+is)\s+(?:the\s+|my\s+|that\s+)?"
    r"(?:reminder\s+(?:about|for|to|of)\s+(?P<a>.+?)|(?P<b>.+?)\s+reminder)\s*[?.!]*$"
    r"|^(?:מתי|באיזו\s+שעה)\s+(?:יש\s+לי\s+)?(?:את\s+)?(?:ה)?תזכורת\s+(?:של\s+|על\s+|ל-?)?(?P<he>\S.*?)\s*[?.!]*$",
    re.I,
)


_NOT_NAMES = frozenset({"next", "upcoming", "first", "soonest", "earliest", "הבאה", "הקרובה", "הראשונה"})


def when_is(text: str, inp: PlannerInput) -> Match | None:
    """The reminders whose titles have the words named, with their times."""
    found = _RE_WHEN_IS.match(text)
    if found is None:
        return None
    about = as_title(the_one_named(found.group("a") or found.group("b") or found.group("he") or ""))
    if not about or is_ref(about):
        return None
    return Match(
        capability="reminders",
        action="list",
        confidence=CONFIDENT,
        risk="low",
        # "when is my next reminder": every one, in time order
        constraints={} if about.lower() in _NOT_NAMES else {"about": about},
        pattern="reminders:when_is",
    )


def show(text: str, inp: PlannerInput) -> Match | None:
    if _RE_ASKED_TO_REMIND.search(text):
        return listing({}, "reminders:list")
    if re.search(rf"\b(?:{DELETE_EN}|{MOVE_EN}|remind me)\b|{DELETE_HE}|{MOVE_HE}|תזכיר", text, re.I):
        return None
    for pattern in _RE_REMINDER_LIST:
        if pattern.search(text):
            constraints: dict[str, object] = _shown_days(text, inp)
            if HOW_MANY.match(text):
                constraints["howMany"] = True
            return Match(
                capability="reminders",
                action="list",
                confidence=CONFIDENT,
                risk="low",
                constraints=constraints,
                pattern="reminders:list",
            )
    return None


def _shown_days(text: str, inp: PlannerInput) -> dict[str, object]:
    """The days a listing asks about: "tomorrow" is that day, "this week" the seven days from today
    (as "what do I have this week?"), "next week" the week after this one; none: every reminder."""
    week = _WEEK.search(text)
    if week is not None:
        if (week.group("en") or "").lower() == "next" or week.group("he_next") is not None:
            period, _ = _period(text, inp)
            last = date.fromisoformat(period["until"]) - timedelta(days=1)
            return {"day": period["from"], "until": last.isoformat()}
        today = inp.now.astimezone(ZoneInfo(inp.timezone)).date()
        return {"day": today.isoformat(), "until": (today + timedelta(days=6)).isoformat()}
    parsed = parse_when(text, inp)
    day = parsed.day or (parsed.when.date() if parsed.when else None)
    return {"day": day.isoformat()} if day is not None else {}


_RE_REMIND = (
    re.compile(
        r"^(?:remind\s+me|set\s+(?:up\s+)?(?:a\s+|an\s+|me\s+a\s+)?reminder|create\s+(?:a\s+)?reminder|"
        r"add\s+(?:a\s+)?reminder|new\s+reminder|make\s+(?:a\s+)?reminder|reminder|"
        r"don'?t\s+let\s+me\s+forget|make\s+sure\s+i\s+(?:don'?t\s+forget\s+)?)\b[:,]?\s*(?P<rest>.*)$",
        re.I,
    ),
    re.compile(r"^(?P<rest>.+?)[,.]?\s+remind\s+me\b[.!]?$", re.I),
    re.compile(
        r"^(?:תזכיר|תזכירי|הזכר|תזכרי|להזכיר)\s+לי\s*(?P<rest>.*)$"
        r"|^(?:תקבע|תקבעי|קבע|תיצור|צור|תוסיף|הוסף|תגדיר|הגדר)\s+(?:לי\s+)?תזכורת\s*(?P<rest2>.*)$"
        r"|^תזכורת\s*[:\-]?\s*(?P<rest3>.*)$"
        r"|^(?:אל\s+תיתן|אל\s+תתן|אל\s+תני)\s+לי\s+לשכוח\s*(?P<rest4>.*)$"
    ),
)


#: "in 20 minutes remind me to ...", "מחר בשמונה תזכיר לי ...": the time comes first.
_RE_TIME_FIRST = re.compile(
    r"^(?P<pre>.{1,60}?)[,:]?\s+(?:remind\s+me|תזכיר\s+לי|תזכירי\s+לי)\b[:,]?\s*(?P<rest>.+)$", re.I
)

#: The question a time problem asks first (then the time itself, `reminder_time_required`).
TIME_PROBLEMS = {"invalid_time": "time_invalid", "past": "time_in_past"}


def _remind_rest(text: str, inp: PlannerInput) -> str | None:
    match = _RE_TIME_FIRST.match(text)
    if match:
        pre = parse_when(match.group("pre"), inp)
        # Only time words before "remind me": "I have a meeting tomorrow so remind me ..." is a
        # sentence about something else, then the request (the planner reads that clause alone).
        if pre.found and not re.sub(r"[\W_]+", "", pre.remainder):
            return f"{match.group('rest')} {match.group('pre')}"
    for pattern in _RE_REMIND:
        match = pattern.search(text)
        if match:
            return next((g for g in match.groups() if g is not None), "")
    return None


#: "set a reminder for 5 to call mom": right after the reminder words, "for" and a bare hour is the
#: time ("for 5 minutes" is not: a unit follows).
_FOR_HOUR = re.compile(
    r"^for\s+(?=\d{1,2}(?:[:.]\d{2})?(?!\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|%|\d))\b)", re.I
)


#: Words that name no task: "remind me again in 20 minutes" with no reminder to repeat is not a
#: reminder titled "again" (what to remind about is asked).
_NO_TITLE_WORD = (
    r"(?:again|once\s+more|later|(?:about\s+)?(?:it|that|this)|"
    r"שוב|עוד\s+פעם|אחר\s+כך|(?:על\s+)?(?:זה|זאת))"
)
_NO_TITLE = re.compile(rf"^{_NO_TITLE_WORD}(?:\s+{_NO_TITLE_WORD})*$", re.I)


def _names_nothing(words: str, title: str) -> bool:
    """The words left for a title are only "again" / "about it" / "שוב" (before the title's own
    trimming, which could make "שוב שוב" into something), or only a number ("1": an answer to
    another question, not a task)."""
    return bool(_NO_TITLE.match(clean(words)) or _NO_TITLE.match(title) or _ONLY_NUMBERS.match(title))


_ONLY_NUMBERS = re.compile(r"^[\d\W_]*$")


def after_remind_words(text: str) -> str:
    """An answer to a reminder's question without "remind me" said again ("remind me to call the
    bank" -> "to call the bank"); the text as it is otherwise."""
    words = clean(text)
    found = next((m for m in (p.search(words) for p in _RE_REMIND) if m), None)
    return next((g for g in found.groups() if g is not None), "") if found is not None else words


def answered_title(answer: str) -> str | None:
    """What "What should I remind you about?" was answered with, as a title ("remind me to call the
    bank" -> "call the bank"); None when the words name nothing ("again", "about it", "שוב"), and
    the question is asked again."""
    words = after_remind_words(answer)
    title = as_title(words)
    return None if not title or _names_nothing(words, title) else title


def lead_title(title: str, event_time: str) -> str:
    """ "15 minutes before my 3pm meeting": set for 14:45, titled with what is at 15:00."""
    return f"{title} ב-{event_time}" if has_hebrew(title) else f"{title} at {event_time}"


#: "remind me in a bit to check the pasta", "remind me later to call mom": no time said, and no
#: part of the title either (the time is asked).
_VAGUE = (
    r"(?:in\s+a\s+(?:bit|while|little\s+while|few)|later(?:\s+on)?|soon|sometime|some\s+time|at\s+some\s+point|"
    r"afterwards|at\s+the\s+end\s+of\s+the\s+day|end\s+of\s+(?:the\s+)?day|אחר\s+כך|עוד\s+מעט|בהמשך|מאוחר\s+יותר)"
)
_VAGUE_TIME = re.compile(rf"^{_VAGUE}(?=\s|$|[,.!?])|(?<=\s){_VAGUE}(?=\s*[.!?]*$)", re.I)

#: "remind me again to call dad at 5", "תזכיר לי שוב להתקשר לאבא": "again" is no part of the title.
_AGAIN_TO = re.compile(r"^(?:again|once\s+more)\s+(?=to\s)|^(?:שוב|עוד\s+פעם)\s+(?=ל)", re.I)


def create(text: str, inp: PlannerInput) -> Match | None:
    rest = _remind_rest(text, inp)
    if rest is None:
        return None
    rest = _FOR_HOUR.sub("at ", _AGAIN_TO.sub("", _VAGUE_TIME.sub(" ", rest)))
    parsed = parse_when(rest, inp)
    title = as_title(parsed.remainder)
    if _names_nothing(parsed.remainder, title):
        title = ""
    if title and parsed.lead_for:
        title = lead_title(title, parsed.lead_for)
    constraints: dict[str, object] = {"title": title} if title else {}
    missing: list[str] = []
    if not title:
        missing.append("reminder_title_required")
    if parsed.recurrence is not None:
        constraints["recurrence"] = parsed.recurrence
    if parsed.problem is not None:
        missing += [TIME_PROBLEMS[parsed.problem], "reminder_time_required"]
    elif parsed.when is not None and parsed.when > inp.now:
        constraints["when"] = iso(parsed.when)
    else:
        if parsed.day is not None:
            constraints["day"] = parsed.day.isoformat()
        missing.append("reminder_time_required")
    return Match(
        capability="reminders",
        action="create",
        # "next tuesday" on a Monday: tomorrow is the reading, shown to be confirmed (`near_next`).
        confidence=GUESS if parsed.near_next and not missing else CONFIDENT,
        risk="low",
        constraints=constraints,
        missing=tuple(missing),
        pattern="reminders:create",
    )


#: "I need to call the bank tomorrow at 10", "I have a dentist appointment on thursday at 4", "צריך
#: להתקשר לבנק מחר בעשר", "יש לי תור לרופא ביום חמישי בארבע": a plan told with its time, no request.
_STATED = (
    re.compile(
        r"^(?:i|we)(?:['’](?:ve|m|re)|\s+have|\s+am|\s+are)?\s+"
        r"(?:(?:got|have|need|must|should|gotta)\s+(?:to\s+)?|going\s+to\s+|have\s+got\s+)(?P<what>.+)$",
        re.I,
    ),
    re.compile(
        r"^(?:אני\s+|אנחנו\s+)?(?:צריך|צריכה|צריכים|חייב|חייבת|חייבים|יש\s+לי|יש\s+לנו)\s+(?P<what>.+)$"
    ),
)
#: The same said as a bare noun phrase: "meeting with dan tomorrow at 3", "dentist at 4 on thursday".
_STATED_NOUN = re.compile(
    r"^(?:a\s+|my\s+|the\s+)?(?:(?!call\b|remind\b|add\b|set\b)\w+\s+)?(?:meeting|appointment|dinner|lunch|"
    r"breakfast|class|lesson|interview|party|flight|practice|training|date)\b"
    r"|^(?:פגישה|תור|ארוחת|שיעור|ראיון|מסיבה|טיסה|אימון)",
    re.I,
)


def stated_plan(text: str, inp: PlannerInput) -> Match | None:
    """A plan told with its time ("I have a dentist appointment on thursday at 4", "meeting with dan
    tomorrow at 3"): Memo offers a reminder at that time, a guess the person confirms ("Just to
    check — ...?"), never set unasked. Without a time of day it is no such offer."""
    said = _without_lead(text, inp)
    if said == text and not _STATED_NOUN.match(text):
        return None
    return _offered(said, inp)


#: Words that name no plan ("yes but at 6pm", "ok then at 5", "אבל ב-6"): the time is an answer
#: or a change, not a thing to be reminded of.
_NO_THING = re.compile(
    r"^(?:(?:yes|yeah|ok|okay|no|but|and|so|then|also|only|just|maybe|it|that|this|one|make\s+it|change\s+it|"
    r"move\s+it|actually|instead|please|כן|לא|אבל|ו?אז|רק|אולי|זה|את\s+זה|בעצם|במקום)\b[\s,.!]*)+$",
    re.I,
)


#: A change said with a time ("but change the time to 6", "תשנה את השעה ל-18:00"): an edit, never
#: a thing to be reminded of.
_A_CHANGE = re.compile(
    rf"^(?:(?:yes|ok|but|and|so|כן|אבל|ו)\s*,?\s*)*(?:{MOVE_EN}|{MOVE_HE}|make|set|update|edit|fix)\b",
    re.I,
)


#: Words said to someone, not plans: "see you at 6", "I'll be there at 5", "נתראה בשמונה".
_SOCIAL = re.compile(
    r"^(?:see\s+(?:you|ya)|talk\s+(?:to\s+you|later)|ttyl|bye|good\s*night|i['’]?ll\s+be\s+there|be\s+there|"
    r"on\s+my\s+way|omw|meet\s+you|נתראה|ביי|לילה\s+טוב|אני\s+בדרך|אהיה\s+שם)\b",
    re.I,
)


def timed_phrase(text: str, inp: PlannerInput) -> Match | None:
    """Anything else said with a time of day, that nothing else read ("call the bank tomorrow at 10",
    "I need to pick up the kids at 4" once "I need to" is dropped, "מחר בשמונה יש לי פגישה עם דני"
    with the time first): offered as a reminder, a guess."""
    return _offered(_without_lead(text, inp), inp)


def _without_lead(text: str, inp: PlannerInput) -> str:
    """The text without "I have/need ...", "יש לי ...", wherever the time words put it."""
    words, lead = text, _lead(text)
    if lead is None and _LEAD_WORD.search(text):
        # "tomorrow at 3 I have a meeting": the time first (read only when a lead word is there).
        words = parse_when(text, inp).remainder
        lead = _lead(words)
    if lead is None:
        return text
    said = words[: lead.start("what")]
    return clean(text.replace(said, " ", 1)) if said in text else lead.group("what")


def _lead(words: str) -> re.Match[str] | None:
    return next((m for m in (p.match(words) for p in _STATED) if m is not None), None)


_LEAD_WORD = re.compile(
    r"\b(?:i|we)\b|(?:^|\s)(?:אני\s+|אנחנו\s+)?(?:צריך|צריכה|צריכים|חייב|חייבת|חייבים|יש\s+לי|יש\s+לנו)(?=\s)",
    re.I,
)


def _offered(said: str, inp: PlannerInput) -> Match | None:
    if "?" in said:
        return None
    parsed = parse_when(said, inp)
    if parsed.when is None or parsed.recurrence is not None or parsed.problem or parsed.when <= inp.now:
        return None
    # "add dentist on friday at 3": the thing, without the verb that asked for it, or its article;
    # "my flight is tomorrow at 6am": without the "is" the time took its place after.
    title = as_title(
        re.sub(
            r"\s+(?:is|are|was|starts|begins|הוא|היא|זה)$",
            "",
            re.sub(
                r"^(?:(?:add|put|schedule|book|set)\s+)?(?:(?:a|an|the|my|our)\s+)?",
                "",
                clean(parsed.remainder),
                flags=re.I,
            ),
            flags=re.I,
        )
    )
    if (
        not title
        or _names_nothing(parsed.remainder, title)
        or _NO_THING.match(title)
        or _A_CHANGE.match(title)
        or _SOCIAL.match(title)
    ):
        return None
    return Match(
        capability="reminders",
        action="create",
        confidence=GUESS,
        risk="low",
        constraints={"title": title, "when": iso(parsed.when)},
        pattern="reminders:stated",
    )


_RE_REMINDER_RENAME = (
    re.compile(
        rf"^(?:rename|retitle)\s+(?:the\s+|my\s+)?(?:{REMINDER_EN}\s+)?(?P<old>.*?)\s+(?:to|as|into)\s+(?P<new>.+)$",
        re.I,
    ),
    re.compile(
        rf"^(?:change|update|set)\s+(?:the\s+)?(?:title|name|text)\s+(?:of\s+)?(?:the\s+|my\s+)?(?:{REMINDER_EN}\s+)?"
        r"(?P<old>.*?)\s+(?:to|as)\s+(?P<new>.+)$",
        re.I,
    ),
    re.compile(
        rf"^(?:תשנה|תשני|שנה|לשנות)\s+(?:את\s+)?(?:ה)?(?:שם|כותרת|טקסט)\s+(?:של\s+)?(?:{REMINDER_HE}\s*)?"
        r"(?P<old>.*)\s+ל-(?P<new>\S.*)$"
    ),
    re.compile(
        rf"^(?:תשנה|תשני|שנה|לשנות)\s+(?:את\s+)?(?:ה)?(?:שם|כותרת|טקסט)\s+(?:של\s+)?(?:{REMINDER_HE}\s*)?"
        r"(?P<old>.*?)\s+ל(?P<new>\S.*)$"
    ),
)


def rename(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_REMINDER_RENAME:
        match = pattern.search(text)
        if not match:
            continue
        old = strip_lead(match.group("old"), r"about|to|for|called|named|על|של")
        capability: Capability = "notes" if re.search(rf"\b(?:{NOTE_EN})\b|פתק", text, re.I) else "reminders"
        constraints, missing, confidence = target_constraints(old, inp, capability)
        return Match(
            capability=capability,
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes={"title": as_title(match.group("new"))},
            missing=missing,
            pattern=f"{capability}:rename",
        )
    return None


_RE_REMINDER_MOVE = (
    re.compile(rf"^(?:{MOVE_EN})\s+(?:the\s+|my\s+)?{REMINDER_EN}\b\s*(?P<rest>.*)$", re.I),
    re.compile(rf"^(?:{MOVE_EN})\s+(?:the\s+|my\s+)?(?P<rest>.+?\s+{REMINDER_EN}\b.*)$", re.I),
    re.compile(rf"^(?:{MOVE_HE})\s+(?:לי\s+)?(?:את\s+)?{REMINDER_HE}\s*(?P<rest>.*)$"),
)


def move(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_REMINDER_MOVE:
        match = pattern.search(text)
        if not match:
            continue
        rest = re.sub(rf"\b{REMINDER_EN}\b", " ", match.group("rest"), flags=re.I)
        shift = shift_of(text.split()[0], strip_scope(rest))
        if shift is not None:
            return _shifted(text, shift, inp)
        parsed = parse_when(strip_scope(rest), inp)
        target = as_title(parsed.remainder)
        constraints, missing, confidence = target_constraints(target, inp, "reminders")
        constraints = {**constraints, **scope_of(text)}
        # A time alone keeps the reminder's day, a day alone keeps its time (in its timezone).
        changes: dict[str, object] = dict(parsed.change())
        missing_fields = list(missing)
        if parsed.problem is not None:
            missing_fields += [TIME_PROBLEMS[parsed.problem], "time_unclear"]
        elif not changes:
            missing_fields.append("time_unclear")
        return Match(
            capability="reminders",
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes=changes,
            missing=tuple(missing_fields),
            pattern="reminders:update",
        )
    return None


def _moved(text: str, target: str, changes: dict[str, object], inp: PlannerInput, pattern: str) -> Match:
    """The reminder `target` names, given `changes` of its time (the part of a series `text` says)."""
    constraints, missing, confidence = target_constraints(target, inp, "reminders")
    return Match(
        capability="reminders",
        action="update",
        confidence=confidence,
        risk="medium",
        constraints={**constraints, **scope_of(text)},
        changes=changes,
        missing=missing,
        pattern=pattern,
    )


def _shifted(text: str, shift: tuple[int, str], inp: PlannerInput) -> Match:
    """ "push the call mom reminder by an hour": the named reminder's own time, moved."""
    minutes, before = shift
    return _moved(text, as_title(_one_dropped(before)), {"shiftMinutes": minutes}, inp, "reminders:shift")


#: Moving a thing in time without saying "reminder": only reminders have a time ("move call mom to
#: 7pm", "push the dentist by an hour", "תדחה את הרופא שיניים בשעה"). "change"/"set"/"make" are
#: left out: "change X to Y" renames, "set ..." creates.
_RE_MOVE_NAMED = (
    re.compile(
        r"^(?P<verb>move|reschedule|push(?:\s+back)?|postpone|delay|shift|bump|bring|pull)\s+(?P<rest>.+)$",
        re.I,
    ),
    re.compile(
        r"^(?P<verb>תזיז|תזיזי|הזז|תדחה|תדחי|דחה|תעביר|תעבירי|העבר|תקדים|תקדימי|הקדם)\s+(?:לי\s+)?(?:את\s+)?(?P<rest>.+)$"
    ),
)


#: "change the bread one to 9am", "set call mom to 6pm": "change"/"set"/"make" move a reminder only
#: when everything after the last "to" is a time ("change X to Y" otherwise renames).
_RE_CHANGE_TO_TIME = re.compile(
    r"^(?:change|set|make|update|switch)\s+(?P<target>.+?)\s+(?:to|for)\s+(?P<when>[^ ].*)$", re.I
)


def _one_dropped(target: str) -> str:
    """ "the bread one" -> "bread", "the one for dad" -> "dad"."""
    named = the_one_named(target)
    if named != target:
        return named
    return re.sub(
        r"\s+(?:one|reminder)$", "", re.sub(r"^(?:the|my|our)\s+", "", target, flags=re.I), flags=re.I
    )


def move_named(text: str, inp: PlannerInput) -> Match | None:
    change = _RE_CHANGE_TO_TIME.match(text)
    if change is not None:
        when = change.group("when")
        if BARE_HOUR.match(when) and not re.search(r"\balarm\b", change.group("target"), re.I):
            when = f"at {when}"  # "change the bank one to 5": an hour (an alarm's bare hour is not)
        parsed = parse_when(when, inp)
        target = as_title(_one_dropped(change.group("target")))
        if (
            parsed.found
            and parsed.problem is None
            and not clean(parsed.remainder)
            and target
            and not is_ref(target)
        ):
            return _moved(text, target, dict(parsed.change()), inp, "reminders:update")
    for pattern in _RE_MOVE_NAMED:
        match = pattern.search(text)
        if not match:
            continue
        rest = strip_scope(match.group("rest"))
        shift = shift_of(match.group("verb"), rest)
        if shift is not None:
            return _shifted(text, shift, inp) if as_title(shift[1]) else None
        parsed = parse_when(rest, inp)
        target = as_title(
            _one_dropped(re.sub(r"\s+(?:to|till|until|for)$", "", parsed.remainder, flags=re.I))
        )
        if not parsed.found or parsed.problem is not None or not target or is_ref(target):
            return None  # no new time, or "it" (`followups.referential`): not this matcher's
        return _moved(text, target, dict(parsed.change()), inp, "reminders:update")
    return None


_SCOPE_OCCURRENCE = re.compile(
    r"\b(?:(?:just|only)\s+(?:this|the\s+next|the\s+upcoming|today'?s|tomorrow'?s)(?:\s+one)?|this\s+one|"
    r"(?:this|the\s+next)\s+occurrence|skip\s+(?:the\s+)?next)\b"
    r"|רק\s+(?:את\s+)?(?:הפעם\s+הזאת|הפעם\s+הזו|הקרובה|הבאה|של\s+היום|של\s+מחר)",
    re.I,
)
_SCOPE_SERIES = re.compile(
    r"\b(?:the\s+whole\s+series|the\s+entire\s+series|all\s+(?:of\s+)?(?:them|the\s+occurrences)|"
    r"every\s+one\s+of\s+them|for\s+good|the\s+series|(?:all\s+)?future\s+ones)\b"
    r"|את\s+כל\s+הסדרה|כל\s+הסדרה|לתמיד|את\s+כולן",
    re.I,
)


def scope_of(text: str) -> dict[str, object]:
    """`{"scope": "occurrence" | "series"}` when the words say which part of a recurring reminder
    ("just this one", "the whole series", "רק הפעם הזאת", "את כל הסדרה"); else nothing, and a
    recurring target gets the question."""
    if _SCOPE_OCCURRENCE.search(text):
        return {"scope": "occurrence"}
    if _SCOPE_SERIES.search(text):
        return {"scope": "series"}
    return {}


def strip_scope(text: str) -> str:
    """The target words without the scope words."""
    text = _SCOPE_OCCURRENCE.sub(" ", text)
    return " ".join(_SCOPE_SERIES.sub(" ", text).split()).strip(" ,.-—")


_PLURAL_NOUN = re.compile(r"\breminders\b|\bnotes\b|תזכורות|פתקים", re.I)

_RE_REMINDER_DELETE = (
    re.compile(
        rf"^(?:{DELETE_EN}|{FORGET_EN})\s+(?:the\s+|my\s+|that\s+|this\s+)?{REMINDER_EN}\b\s*(?P<target>.*)$",
        re.I,
    ),
    re.compile(
        rf"^(?:{DELETE_EN}|{FORGET_EN})\s+(?:the\s+|my\s+)?(?P<target>.+?)\s+{REMINDER_EN}\b\s*$", re.I
    ),
    re.compile(rf"^(?:{DELETE_HE})\s+(?:לי\s+)?(?:את\s+)?{REMINDER_HE}\s*(?P<target>.*)$"),
)


#: "stop reminding me about vitamins", "don't remind me to stretch anymore", "תפסיק להזכיר לי על
#: הוויטמינים": that reminder deleted, every time of it (a series as a whole).
_RE_STOP_REMINDING = (
    re.compile(
        r"^(?:stop|quit|no\s+more)\s+remind(?:ing)?\s+me\s+(?:about\s+|to\s+|of\s+)?(?P<target>.+?)(?:\s+(?:anymore|any\s+more))?\s*[.!]*$",
        re.I,
    ),
    re.compile(
        r"^(?:don'?t|do\s+not|no\s+need\s+to)\s+remind\s+me\s+(?:about\s+|to\s+|of\s+)?(?P<target>.+?)\s+(?:anymore|any\s+more|again)\s*[.!]*$",
        re.I,
    ),
    re.compile(r"^(?:תפסיק|תפסיקי|די)\s+(?:להזכיר|לתזכר)\s+לי\s+(?:על\s+|ל)?(?P<target>.+?)\s*[.!]*$"),
    # "stop reminding me", "תפסיק להזכיר לי": no reminder named, so the one just set (asked for
    # approval), or which one is asked.
    re.compile(
        r"^(?:(?:stop|quit)\s+remind(?:ing)?\s+me|(?:תפסיק|תפסיקי)\s+(?:להזכיר|לתזכר)\s+לי)(?P<target>)"
        r"(?:\s+(?:anymore|any\s+more|please|already|כבר|בבקשה))?\s*[.!]*$",
        re.I,
    ),
    # "stop the plant reminders", "turn off my vitamins reminder", "stop the reminder about the gym"
    re.compile(
        rf"^(?:stop|end|turn\s+off|switch\s+off)\s+(?:the\s+|my\s+|that\s+|this\s+)?(?P<target>.+?)\s+{REMINDER_EN}\s*[.!]*$",
        re.I,
    ),
    re.compile(
        rf"^(?:stop|end|turn\s+off|switch\s+off)\s+(?:the\s+|my\s+)?{REMINDER_EN}\s+(?:about|for|to|of)\s+(?P<target>.+?)\s*[.!]*$",
        re.I,
    ),
    re.compile(
        rf"^(?:תפסיק|תפסיקי|תכבה|תכבי)\s+(?:לי\s+)?(?:את\s+)?{REMINDER_HE}\s+(?:של\s+|על\s+|ל)?(?P<target>.+?)\s*[.!]*$"
    ),
    re.compile(r"^אל\s+(?:תזכיר|תזכירי)\s+לי\s+(?:יותר\s+)?(?:על\s+|ל)?(?P<target>.+?)(?:\s+יותר)?\s*[.!]*$"),
)


#: "skip next week", "skip it tomorrow", "skip the trash this time", "תדלג על השבוע הבא": only the next
#: time of a repeating reminder (a period named is checked against that time when resolved).
_RE_SKIP = (
    re.compile(r"^(?:skip|miss)\s+(?P<rest>.+?)\s*[.!]*$", re.I),
    re.compile(r"^(?:תדלג|תדלגי|דלג|דלגי)\s+(?:לי\s+)?(?:על\s+)?(?P<rest>.+?)\s*[.!]*$"),
)
_NEXT_ONE = re.compile(
    r"\b(?:next\s+time|this\s+time|it|that|this(?:\s+one)?|the\s+next(?:\s+one)?|once|one)\b"
    r"|(?:ב)?(?:ה)?פעם(?:\s+ה?באה|\s+הזאת|\s+הזו)?|(?:את\s+)?(?:זה|זאת)(?=\s|$)",
    re.I,
)
_SKIP_LEFTOVERS = re.compile(r"(?:^|\s)(?:['’]s|the|my|on|for|of|של)(?=\s|$)", re.I)
_WEEK = re.compile(r"\b(?P<en>this|next)\s+week\b|(?P<he_next>(?:ב|ה)?שבוע\s+הבא)|(?P<he_this>ב?השבוע)", re.I)


def _period(text: str, inp: PlannerInput) -> tuple[dict[str, str], str]:
    """The days a skip names ("next week", "tomorrow", "friday"), as {"from", "until"} (dates, the
    end excluded), and the words without them."""
    zone = ZoneInfo(inp.timezone)
    today = inp.now.astimezone(zone).date()
    week = _WEEK.search(text)
    if week is not None:
        # A week starts on Sunday in Israel (and in Hebrew), else on Monday.
        sunday = inp.timezone == "Asia/Jerusalem" or has_hebrew(text)
        start_weekday = 6 if sunday else 0
        next_start = today + timedelta(days=(start_weekday - today.weekday() - 1) % 7 + 1)
        nxt = (week.group("en") or "").lower() == "next" or week.group("he_next") is not None
        first, end = (next_start, next_start + timedelta(days=7)) if nxt else (today, next_start)
        rest = text[: week.start()] + " " + text[week.end() :]
        return {"from": first.isoformat(), "until": end.isoformat()}, clean(rest)
    parsed = parse_when(text, inp)
    day = parsed.day or (parsed.when.astimezone(zone).date() if parsed.when is not None else None)
    if day is None or parsed.recurrence is not None:
        return {}, text
    return {"from": day.isoformat(), "until": (day + timedelta(days=1)).isoformat()}, parsed.remainder


def skip(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_SKIP:
        match = pattern.search(text)
        if match is None:
            continue
        within, words = _period(match.group("rest"), inp)
        words = re.sub(rf"\b{REMINDER_EN}\b|{REMINDER_HE}", " ", _NEXT_ONE.sub(" ", words), flags=re.I)
        # "skip tomorrow's", "skip the one on friday": what is left of the day's words is no name.
        words = _SKIP_LEFTOVERS.sub(" ", words)
        target = as_title(_one_dropped(clean(words)))
        constraints: dict[str, object] = {"scope": "occurrence"}
        if within:
            constraints["within"] = within
        if target:
            found, missing, confidence = target_constraints(target, inp, "reminders")
            constraints = {**found, **constraints}
        else:
            # "skip next week": the reminder just made or named.
            latest = latest_action(inp, "reminders")
            if latest is None:
                return None
            constraints = {"targetRef": "latest_action", **constraints}
            missing, confidence = (), REFERENTIAL
        return Match(
            capability="reminders",
            action="delete",
            confidence=confidence,
            risk="high",
            constraints=constraints,
            missing=tuple(missing),
            pattern="reminders:skip",
        )
    return None


def stop_reminding(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_STOP_REMINDING:
        match = pattern.search(text)
        if match:
            constraints, missing, confidence = target_constraints(match.group("target"), inp, "reminders")
            latest = latest_action(inp)
            if not match.group("target") and (
                latest is None or latest.capability != "reminders" or latest.action.startswith("delete")
            ):
                # "stop reminding me" with something else just done (or a reminder just deleted):
                # which reminder is asked.
                constraints, missing, confidence = {}, ("target_unclear",), CONFIDENT
            return Match(
                capability="reminders",
                action="delete",
                confidence=confidence,
                risk="high",
                constraints={**constraints, "scope": "series"},
                missing=missing,
                pattern="reminders:delete",
            )
    return None


def delete(text: str, inp: PlannerInput) -> Match | None:
    scope = scope_of(text)
    core = strip_scope(text) if scope else text
    for pattern in _RE_REMINDER_DELETE:
        match = pattern.search(core)
        if match:
            target_words = the_one_named(strip_scope(match.group("target")))
            constraints, missing, confidence = target_constraints(target_words, inp, "reminders")
            if _PLURAL_NOUN.search(match.group(0)):
                constraints = {**constraints, "plural": True}  # "the call reminders": maybe several
            constraints = {**constraints, **scope}
            return Match(
                capability="reminders",
                action="delete",
                confidence=confidence,
                risk="high",
                constraints=constraints,
                missing=missing,
                pattern="reminders:delete",
            )
    return None
