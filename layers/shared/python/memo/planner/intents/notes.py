"""Note commands: save, search (and questions about something noted), change, delete."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from memo.domain import NOTE_TEXT_REQUIRED
from memo.planner.base import PlannerInput
from memo.planner.lexicon import (
    DELETE_EN,
    DELETE_HE,
    FORGET_EN,
    HE_CONSTRUCT_THING,
    NOTE_EN,
    NOTE_HE,
    clean,
)
from memo.planner.match import CONFIDENT, GUESS, Match, target_constraints
from memo.planner.normalize import fix_typos, strip_pleasantries

_RE_NOTE_SAVE = (
    # "save this as a note", "put that in my notes: gate 1234", "תשמור את זה כפתק": what "this" is
    # follows the colon, or is the message before (`memo.planner.rules`), or is not here (asked).
    re.compile(
        r"^(?:save|keep|store|put|add|make|write|jot|note)\s+(?:down\s+)?(?:this|that|it)\s+(?:down\s+)?"
        r"(?:as|in|into|to|on)\s+(?:a\s+|my\s+|the\s+)?notes?\b(?:\s*[:\-,]\s*(?P<text>.+?))?[.!]*$",
        re.I,
    ),
    re.compile(
        r"^(?:save|store|remember|note|write|jot)\s+(?:this|that|it)(?:\s+down)?"
        r"(?:\s+(?:for\s+me|please))?[.!]*$",
        re.I,
    ),
    re.compile(
        r"^(?:תשמור|תשמרי|שמור|תרשום|תרשמי|רשום|תזכור|תזכרי|זכור)\s+(?:לי\s+)?(?:את\s+)?זה"
        r"(?:\s+(?:כ|ב)(?:פתקים|פתק|הערות|הערה))?(?:\s*[:\-]\s*(?P<text>.+?))?[.!]*$"
    ),
    re.compile(r"^(?:note|memo)\s*[:\-]\s*(?P<text>.+)$", re.I),
    re.compile(r"^(?:note|memo)\s+to\s+(?:self|myself)\s*[:\-,]?\s*(?P<text>.+)$", re.I),
    re.compile(
        r"^(?:take|make|save|add|write|create|jot)\s+(?:down\s+)?(?:a\s+|this\s+|the\s+)?(?:quick\s+)?note\s*(?:that|saying|:|-)?\s*(?P<text>.+)$",
        re.I,
    ),
    re.compile(r"^note\s+(?:that|down)\s*:?\s*(?P<text>.+)$", re.I),
    re.compile(r"^(?:write|jot)\s+(?:this\s+)?down(?:\s*:\s*|\s+(?:that\s+)?)(?P<text>.+)$", re.I),
    # "remember the gate code is 1234", "remember my flight is at 6": a fact told, not asked
    re.compile(
        r"^(?:please\s+)?remember\s+(?P<text>(?:my|the|our)\s+\S.*?\s+(?:is|are|was|were)\s+(?!what\b)\S.*?)\s*$",
        re.I,
    ),
    re.compile(
        r"^(?:remember|save)\s+(?:that|this)(?!\s+(?:as|in|into|to)\s+(?:a\s+|my\s+|the\s+)?notes?\b)"
        r"\s*:?\s*(?P<text>.+)$",
        re.I,
    ),
    re.compile(
        r"^(?:תרשום|תרשמי|רשום|לרשום|תכתוב|תכתבי|כתוב|תשמור|תשמרי|שמור|לשמור|תזכור|תזכרי|זכור)"
        r"(?:\s*:\s*|\s+(?:לי\s*(?=[:ש\s]))?\s*(?:פתק\s+)?(?:ש-?|:\s*))(?P<text>.+)$"
    ),
    re.compile(r"^(?:תרשום|רשום|תכתוב|כתוב|תשמור|שמור)\s+(?:לי\s+)?פתק\s*:?\s*(?P<text>.+)$"),
    # "תכתוב בפתקים שהקוד של הבניין הוא 55", "write in my notes that the gate code is 55"
    re.compile(
        r"^(?:תרשום|תרשמי|רשום|תכתוב|תכתבי|כתוב|תשמור|תשמרי|שמור|תוסיף|תוסיפי|הוסף)\s+(?:לי\s+)?(?:ב|ל)ה?(?:פתקים|הערות)"
        r"(?:\s+שלי)?\s*(?:ש-?|:\s*)(?P<text>\S.+)$"
    ),
    re.compile(
        r"^(?:write|put|add|save|jot|note)\s+(?:down\s+)?(?:in|into|to|on)\s+(?:my\s+|the\s+)?notes\s*(?:that\s+|:\s*|-\s*)"
        r"(?P<text>\S.+)$",
        re.I,
    ),
    re.compile(r"^(?:פתק|הערה)\s*[:\-]\s*(?P<text>.+)$"),
)


#: A word that is a code or a password ("Blue2024", "4821#"): it holds a digit or a symbol.
_A_CODE = re.compile(r"[\d#@$%&*^~+=/\\]")
#: The marks written right after it that are part of it ("Blue2024!", "4821#!"); a sentence's "."
#: or "?" is not.
_ITS_MARKS = r"(?P<marks>[!#@$%&*^~+=]+)(?=[\s.,?\"'”’)]*$)"


def as_written(body: str, inp: PlannerInput) -> str:
    """A note's words with the marks that end its last word in the message when that word is a
    code or a password ("Blue2024!", "4821#!"): cleaning the message took them off, and a
    password without them is another password. A plain word's "!" ends the sentence."""
    last = body.split()[-1] if body.split() else ""
    if not _A_CODE.search(last):
        return body
    found = re.search(re.escape(last) + _ITS_MARKS, inp.message)
    return body + found.group("marks") if found else body


def as_typed(body: str, inp: PlannerInput) -> str:
    """A note's words as the user typed them. The planner reads the message with chat spellings
    spelled out and typos of its keywords corrected ("my keys r in the car" -> "are"), but a note
    keeps what was written: the message as typed (less its greeting and thanks) is lined up word
    by word with the message as read, and the typed words that read as `body` are taken; `body`
    itself when they cannot be told apart."""
    typed = clean(strip_pleasantries(clean(inp.message)))
    said = list(_WORD.finditer(typed))
    read = _WORD.findall(fix_typos(typed))
    wanted = _WORD.findall(body)
    first = next((k for k in range(len(read) - len(wanted) + 1) if read[k : k + len(wanted)] == wanted), None)
    if not wanted or first is None:
        return body
    last = first + len(wanted)
    span: list[int] = []
    lined_up = SequenceMatcher(a=[w.group() for w in said], b=read, autojunk=False)
    for tag, i1, i2, j1, j2 in lined_up.get_opcodes():
        if j1 <= first < j2 and (tag == "equal" or first == j1):
            span.append(i1 + (first - j1 if tag == "equal" else 0))
        if j1 < last <= j2 and (tag == "equal" or last == j2):
            span.append(i1 + (last - j1) if tag == "equal" else i2)
    if len(span) != 2 or span[0] >= span[1]:
        return body
    # The last word with the marks typed onto it ("4821#", "Blue2024!"): `clean` takes off a
    # sentence's own.
    end = re.compile(r"\S*").match(typed, said[span[1] - 1].end())
    return clean(typed[said[span[0]].start() : end.end() if end else len(typed)])


#: A word as `as_typed` lines words up: letters and digits, without the marks around them.
_WORD = re.compile(r"[^\W_]+")


def save(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_NOTE_SAVE:
        match = pattern.search(text)
        if match:
            body = as_written(as_typed(clean(match.groupdict().get("text") or ""), inp), inp)
            return Match(
                capability="notes",
                action="save",
                confidence=CONFIDENT,
                risk="low",
                constraints={},
                changes={"text": body},
                # "save this as a note" with nothing after it: what the note says is asked, unless
                # it is the message Memo just asked about (`RulePlanner.plan`).
                missing=() if body else (NOTE_TEXT_REQUIRED,),
                pattern="notes:save",
            )
    return None


_RE_NOTE_SEARCH = (
    re.compile(
        r"^(?:what\s+did\s+i\s+(?:note|write|save|jot)(?:\s+down)?|what\s+do\s+i\s+have\s+(?:noted|written)(?:\s+down)?)"
        r"\s*(?:about|on|for|regarding|re)?\s*(?P<q>.*?)\??$",
        re.I,
    ),
    re.compile(
        rf"^(?:find|search|look\s+up|look\s+for|show|get|check|list|read)\s+(?:me\s+)?(?:in\s+)?(?:my\s+|the\s+|all\s+(?:my\s+)?)?(?:{NOTE_EN})"
        r"\s*(?:about|on|for|regarding|with|mentioning|that\s+mention)?\s*(?P<q>.*?)\??$",
        re.I,
    ),
    re.compile(
        rf"^(?:do\s+i\s+have|is\s+there)\s+(?:a|any)\s+(?:{NOTE_EN})\s*(?:about|on|for|with)?\s*(?P<q>.*?)\??$",
        re.I,
    ),
    re.compile(rf"^(?:my\s+)?(?:{NOTE_EN})\s*\??$", re.I),
    # "do I have anything saved about the car?", "did I note anything on the lease", "anything saved on noa?"
    re.compile(
        r"^(?:(?:do\s+i\s+have|did\s+i\s+(?:save|note|write(?:\s+down)?|keep|jot\s+down)|have\s+i\s+(?:saved|noted|written)|"
        r"is\s+there)\s+(?:anything|something|stuff|any\s+notes?|a\s+note)\s+(?:(?:saved|noted|written(?:\s+down)?|kept|stored)\s+)?"
        r"|(?:anything|something)\s+(?:saved|noted|written(?:\s+down)?|kept|stored)\s+)(?:about|on|for|regarding)\s+(?:the\s+|my\s+|our\s+)?(?P<q>\S.*?)\s*\??$",
        re.I,
    ),
    # "יש לי משהו שמור על האוטו?", "שמרתי משהו על האוטו?", "רשמתי משהו לגבי השכירות"
    re.compile(
        r"^(?:יש\s+לי\s+(?:משהו|פתק|פתקים)\s+(?:שמור|שמורים|רשום|רשומים)?|(?:שמרתי|רשמתי|כתבתי)\s+(?:משהו|פתק))"
        r"\s*(?:על|לגבי|בקשר\s+ל|בנושא)\s+(?P<q>\S.*?)\s*\??$"
    ),
    # "what notes do I have?", "which notes have I got", "how many notes do I have"
    re.compile(
        rf"^(?:what|which|how\s+many)\s+(?:{NOTE_EN})\s+(?:do\s+i\s+have|have\s+i\s+(?:got|saved|written|taken))"
        r"(?:\s+(?:saved|so\s+far))?\s*(?P<q>)\??$",
        re.I,
    ),
    # "אילו פתקים יש לי", "איזה הערות שמרתי"
    re.compile(rf"^(?:אילו|איזה|כמה)\s+{NOTE_HE}\s+(?:יש\s+לי|שמרתי|רשמתי|כתבתי)\s*(?P<q>)\??$"),
    re.compile(r"^מה\s+(?:רשמתי|כתבתי|שמרתי)\s*(?:על|לגבי|בנושא|בקשר\s+ל)?\s*(?P<q>.*?)\??$"),
    re.compile(
        rf"^(?:תחפש|תחפשי|חפש|לחפש|תמצא|תמצאי|מצא|תראה|תראי|הראה|תציג)\s+(?:לי\s+)?(?:את\s+)?(?:ב)?(?:כל\s+)?{NOTE_HE}(?:\s+שלי)?\s*"
        r"(?:(?:על|של|לגבי|עם|בנושא|את)(?=\s|$))?\s*(?P<q>.*?)\??$"
    ),
    re.compile(r"^(?:ה)?(?:פתקים|הערות)\s+שלי\s*\??$"),
)


def search(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_NOTE_SEARCH:
        match = pattern.search(text)
        if match:
            query = clean(match.groupdict().get("q") or "")
            return Match(
                capability="notes",
                action="search",
                confidence=CONFIDENT,
                risk="low",
                constraints={"query": query},
                pattern="notes:search",
            )
    return None


# "what's the wifi password?" / "מה הסיסמה של הוויפי?": a question about something the user told Memo
# is a note search. Only "the/my/our ..." (Hebrew: a definite noun) so "what time is it" stays unclear.
_RE_RECALL = (
    re.compile(
        r"^(?:what(?:'s|’s|\s+is|\s+was|\s+are|\s+were)|whats|where(?:'s|’s|\s+is|\s+are)|"
        r"(?:do\s+you\s+)?remember|remind\s+me\s+what)\s+(?:my|the|our)\s+(?P<q>.+?)\s*\??$",
        re.I,
    ),
    re.compile(
        rf"^(?:מה|איפה)\s+(?:היה\s+|היתה\s+|הייתה\s+)?(?P<q>(?:ה\S{{2,}}|{HE_CONSTRUCT_THING}).*?)\s*\??$"
    ),
    # "what's Noa's shoe size?", "when is mom's birthday?": something of someone the user told Memo about.
    re.compile(
        r"^(?:what(?:'s|’s|\s+is|\s+was)|whats|where(?:'s|’s|\s+is)|when(?:'s|’s|\s+is|\s+was))"
        r"\s+(?P<q>\w+(?:'s|’s)\s+\w.*?)\s*\??$",
        re.I,
    ),
    # "מתי יום ההולדת של אמא?": a day the user noted.
    re.compile(
        r"^מתי\s+(?P<q>(?:יום\s+ה?הולדת|ה?יומולדת|ה?חתונה|ה?טיסה|ה?יום\s+ה?נישואין)\s+של\s+\S.*?)\s*\??$"
    ),
)


#: Questions about the world, not about something the user noted.
_NOT_RECALL = re.compile(r"^(?:time|date|day|weather|temperature|news|score)\b", re.I)


#: "what are my notes?", "מה הפתקים שלי": the notes themselves, not something noted in them.
_ALL_NOTES = re.compile(rf"^(?:all\s+)?(?:{NOTE_EN}|{NOTE_HE}(?:\s+שלי)?)$", re.I)


def recall(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_RECALL:
        match = pattern.search(text)
        if match and not _NOT_RECALL.match(match.group("q")):
            # "what's my note about noa?": the notes about "noa", not about "note about noa".
            query = clean(
                re.sub(
                    rf"^(?:{NOTE_EN})\s+(?:about|on|for|regarding)\s+",
                    "",
                    clean(match.group("q")),
                    flags=re.I,
                )
            )
            every = bool(_ALL_NOTES.match(query))
            return Match(
                capability="notes",
                action="search",
                confidence=CONFIDENT if every else 0.75,
                risk="low",
                constraints={"query": "" if every else query},
                pattern="notes:search" if every else "notes:recall",
            )
    return None


_RE_NOTE_DELETE = (
    re.compile(
        rf"^(?:{DELETE_EN}|{FORGET_EN})\s+(?:the\s+|my\s+|that\s+|this\s+)?(?:note|memo)\b\s*(?:about|on|for|regarding|with|that\s+says|saying)?\s*(?P<target>.*)$",
        re.I,
    ),
    re.compile(
        rf"^(?:{DELETE_HE})\s+(?:לי\s+)?(?:את\s+)?ה?(?:פתק|הערה)\s*(?:על|של|לגבי|ש)?\s*(?P<target>.*)$"
    ),
)


_RE_NOTE_DELETE_NAMED = (
    re.compile(
        rf"^(?:{DELETE_EN}|{FORGET_EN})\s+(?:the\s+|my\s+|that\s+|this\s+)?(?P<target>.+?)\s+(?:note|memo)s?\s*$",
        re.I,
    ),
)


def delete_named(text: str, inp: PlannerInput) -> Match | None:
    """ "delete the wifi note": the note named before the noun."""
    for pattern in _RE_NOTE_DELETE_NAMED:
        match = pattern.search(text)
        if match:
            constraints, missing, confidence = target_constraints(match.group("target"), inp, "notes")
            return Match(
                capability="notes",
                action="delete",
                confidence=confidence,
                risk="high",
                constraints=constraints,
                missing=missing,
                pattern="notes:delete",
            )
    return None


_RE_NOTE_CHANGE = (
    # "change the wifi note to sunshine43", "update my note about the gate code to 1234"
    re.compile(
        r"^(?:change|update|edit|fix|correct)\s+(?:the\s+|my\s+|that\s+)?"
        r"(?:(?P<named>.+?)\s+(?:note|memo)|(?:note|memo)\s+(?:about|on|for|regarding|with)\s+(?P<about>.+?))"
        r"\s+(?:to\s+say|so\s+it\s+says|to|:)\s*(?P<text>\S.*)$",
        re.I,
    ),
    # "תשנה את הפתק על המורה לפסנתר: קוראים לה רינה": a colon ends the note's name
    re.compile(
        r"^(?:תשנה|תשני|שנה|תעדכן|תעדכני|עדכן|תתקן|תתקני)\s+(?:לי\s+)?(?:את\s+)?ה?(?:פתק|הערה)\s+(?:של|על|לגבי)\s+"
        r"(?P<about>[^:]+?)\s*:\s*(?P<text>\S.*)$"
    ),
    # "תשנה את הפתק של הוויפי ל-sunshine43", "תעדכן את הפתק על הקוד ל 1234"
    re.compile(
        r"^(?:תשנה|תשני|שנה|תעדכן|תעדכני|עדכן|תתקן|תתקני)\s+(?:לי\s+)?(?:את\s+)?ה?(?:פתק|הערה)\s+(?:של|על|לגבי)\s+"
        r"(?P<about>.+?)\s+ל-?\s*(?P<text>\S.*)$"
    ),
)


def change(text: str, inp: PlannerInput) -> Match | None:
    """ "change the wifi note to sunshine43": that note, said again (approved first, with what the
    note will then say: a value alone replaces the value, `memo.capabilities.notes.revised_text`)."""
    for pattern in _RE_NOTE_CHANGE:
        match = pattern.search(text)
        if match:
            named = match.groupdict().get("named") or match.group("about")
            constraints, missing, confidence = target_constraints(named, inp, "notes")
            return Match(
                capability="notes",
                action="update",
                confidence=confidence,
                risk="medium",
                constraints=constraints,
                changes={"text": as_written(clean(match.group("text")), inp)},
                missing=missing,
                pattern="notes:update",
            )
    return None


# "where did I park?" / "where did I put my keys" / "איפה החניתי": the answer is in a note.
_RE_WHERE = (
    re.compile(
        r"^where\s+(?:did|do)\s+i\s+(?P<verb>park(?:ed)?|put|leave|left|hide|hid|keep|store)\b\s*(?:the\s+|my\s+|our\s+)?"
        r"(?P<q>.*?)\s*\??$",
        re.I,
    ),
    # spelled with or without the yod: "החנתי", "השרתי", "החבתי"
    re.compile(
        r"^איפה\s+(?P<verb>החניתי|החנתי|חניתי|חנתי|שמתי|השארתי|השרתי|הנחתי|החבאתי|החבתי)\s*(?:את\s+)?(?P<q>.*?)\s*\??$"
    ),
)
#: A "where did I park" question has no object: the verb is what the note says ("I parked on
#: level 2", "parking: level 2"; "החניתי בקומה 2", "החניה בקומה 2"). In Hebrew „חנייה” is near
#: enough to each of the verb's forms and the noun's to find them all.
_PARKING = {
    "park": "park",
    "parked": "park",
    "החניתי": "חנייה",
    "החנתי": "חנייה",
    "חניתי": "חנייה",
    "חנתי": "חנייה",
}


def where(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_WHERE:
        match = pattern.search(text)
        if match:
            verb = match.group("verb").lower()
            query = clean(match.group("q")) or _PARKING.get(verb, "")
            if not query:
                return None
            return Match(
                capability="notes",
                action="search",
                confidence=CONFIDENT,
                risk="low",
                constraints={"query": query},
                pattern="notes:where",
            )
    return None


#: Where the user just left something: what "where did I park?" (`where`) is later asked about.
_RE_I_LEFT_IT = (
    re.compile(r"^i(?:'ve|\s+have)?\s+(?:just\s+)?(?:parked|put|left|hid|stored)\s+\S.*$", re.I),
    re.compile(r"^(?:החניתי|חניתי|שמתי|השארתי|הנחתי|החבאתי)\s+\S.*$"),
)
#: "my passport number is 12345678", "the gate code is 4321", "הקוד של השער הוא 4321": a fact told,
#: probably to be kept; asked before it is saved (a statement may also be just a remark).
_RE_FACT = (
    re.compile(r"^(?:my|our|the|\w+(?:'s|’s))\s+(?!.*\?$)[\w'’\- ]{2,40}?\s+(?:is|are|=)\s+\S.*$", re.I),
    re.compile(r"^(?!.*\?$)\S.{1,40}?\s+(?:שלי|שלנו)\s+(?:הוא|היא|הם|זה)\s+\S.*$"),
    re.compile(r"^(?!.*\?$)ה\S.{1,40}?\s+(?:הוא|היא|זה)\s+\S.*$"),
)


#: What makes a statement a fact worth keeping rather than a remark ("the weather is nice"): a
#: number in it, or a thing people look up ("code", "password", "size", "קוד", "סיסמה", ...).
KEPT_THINGS = re.compile(
    r"\d|\b(?:code|number|no\.|password|passcode|pin|address|size|birthday|anniversary|e-?mail|phone|"
    r"account|combination|plate|locker|room|seat|gate|flight|wifi|wi-fi)\b|"
    r"קוד|מספר|סיסמ|כתובת|מידה|יום\s+הולדת|טלפון|חשבון|חדר|מושב|שער|טיסה|לוחית|וויפי|ויפי",
    re.I,
)


def statement(text: str, inp: PlannerInput) -> Match | None:
    """ "I parked on level 3" -> saved as a note; "my locker code is 1234" -> a note, asked first."""
    read = clean(text)
    if any(p.match(read) for p in _RE_I_LEFT_IT):
        confidence = CONFIDENT
    elif any(p.match(read) for p in _RE_FACT) and KEPT_THINGS.search(read):
        confidence = GUESS
    else:
        return None
    body = as_written(as_typed(read, inp), inp)
    return Match(
        capability="notes",
        action="save",
        confidence=confidence,
        risk="low",
        constraints={},
        changes={"text": body},
        pattern="notes:statement",
    )


def delete(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_NOTE_DELETE:
        match = pattern.search(text)
        if match:
            constraints, missing, confidence = target_constraints(match.group("target"), inp, "notes")
            return Match(
                capability="notes",
                action="delete",
                confidence=confidence,
                risk="high",
                constraints=constraints,
                missing=missing,
                pattern="notes:delete",
            )
    return None


#: A link sent alone, or with "save", "keep", "for later" (the words around it stay with it).
_LINK = re.compile(
    r"^(?:(?:please\s+)?(?:save|keep|store|bookmark)\s+(?:this\s+)?(?:link\s*:?\s*)?|(?:תשמור|שמור|תשמרי)\s+(?:את\s+)?"
    r"(?:הקישור\s*:?\s*)?)?(?P<link>https?://\S+)(?:\s+(?:for\s+later|לאחר\s+כך|לאחר\s+מכן))?\s*[.!]*$",
    re.I,
)


def link(text: str, inp: PlannerInput) -> Match | None:
    """A link sent on its own ("https://…"): kept as a note, a guess asked first ("Just to check —
    you want me to save the note “https://…”?"); with "save" it is saved. A link inside a request
    (a reminder to read it) stays with that request."""
    match = _LINK.match(text)
    if match is None:
        return None
    return Match(
        capability="notes",
        action="save",
        confidence=GUESS if text.startswith(match.group("link")) else CONFIDENT,
        risk="low",
        constraints={},
        changes={"text": match.group("link")},
        pattern="notes:link",
    )
