"""Language of a message: Hebrew or English, by the script its letters are written in
(`detect_language`); and whether it is written in a language Memo does not read (`other_language`).

Memo reads English and Hebrew; another language is told by two signs, each counted in words, so that
an English or Hebrew message with a foreign word, a name or a quoted phrase in it is never taken for
one:
- the script: more words written in another script (Cyrillic, Arabic, Greek, CJK, ...) than in
  Latin and Hebrew letters together ("Напомни мне позвонить маме", "ذكرني غدا"; not "call Владимир
  at 5");
- for Latin letters, the small words of Spanish, French, German, Portuguese and Italian that are
  not English words: at least two of them and three times as many as English or Hebrew words
  ("recuérdame llamar a mamá mañana"; not "remind me about the Día de los Muertos party"), or a
  greeting or thanks alone ("hola", "merci").
Quoted text, links and e-mail addresses are no one's language, and neither is what follows a colon
after English or Hebrew words ("save a note: el que no tiene dinga…" is English).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Literal

Language = Literal["en", "he"]


# Where a link starts; it runs to the end of its word.
_LINK = re.compile(r"(?:https?://|www\.)(?=.)", re.I | re.S)


def _is_address(word: str) -> bool:
    """An e-mail address: something, "@", something, ".", something (one word, read in one pass)."""
    at = word.find("@", 1)
    return at > 0 and "." in word[at + 2 : -1]


def _without_link(word: str) -> str:
    """The word as far as it is language: nothing of an address or of a link that starts it, the
    part before a link that starts inside it. Each word is read in one pass, so a message of any
    length without spaces costs no more than its length."""
    link = _LINK.search(word)
    if (link is not None and link.start() == 0) or _is_address(word):
        return ""
    return word[: link.start()] if link is not None else word


def detect_language(text: str, default: Language) -> Language:
    """Hebrew when Hebrew letters are at least as many as Latin ones; no letters -> `default`.
    Links and e-mail addresses are no one's language ("תשמור את הקישור https://…" is Hebrew)."""
    words = [_without_link(word) for word in text.split()]
    hebrew = sum(1 for word in words for ch in word if "\u05d0" <= ch <= "\u05ea")
    latin = sum(1 for word in words for ch in word if ch.isascii() and ch.isalpha())
    if hebrew == 0 and latin == 0:
        return default
    return "he" if hebrew >= latin else "en"


#: The scripts Memo reads; a word in any other script is another language's.
_OWN_SCRIPTS = frozenset({"LATIN", "HEBREW"})


def _words_of(text: str) -> frozenset[str]:
    return frozenset(text.split())


_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|«[^»]*»|„[^“”]*[“”]")
_ADDRESSES = re.compile(r"(?:https?://|www\.)\S+|\S+@\S+\.\S+", re.I)

#: Small words of each language that are not English ones (and not names or words English uses
#: alone: "die", "pour", "do", "mama", "non", "ciao" are left out).
_WORDS: dict[str, frozenset[str]] = {
    "es": _words_of(
        "el los las del que qué por para con una unos unas mañana hoy recuérdame recuerdame recordar "
        "recordatorio hola gracias cómo como está estás tengo quiero necesito puedes lista añade añadir "
        "agrega agregar compra comprar llamar mamá papá leche huevos muy pero también dónde cuándo cuando "
        "nota guarda guardar buenos buenas días noches tardes favor hacer mi mis tu tus y es en de la "
        "al lo su sus esta este borra borrar"
    ),
    "fr": _words_of(
        "le les des du une est et je j'ai tu vous nous avec dans sur pas bonjour bonsoir merci rappelle "
        "moi demain aujourd'hui liste ajoute ajouter acheter appeler maman c'est oui s'il "
        "plaît salut comment ça ma mes au aux à ne qui quoi faire lait œufs oeufs courses de la d'appeler "
        "n'oublie"
    ),
    "de": _words_of(
        "der das und ist nicht ich du sie wir mit für auf ein eine einen morgen heute erinnere erinner "
        "mich mir bitte danke hallo liste kaufen anrufen guten wie geht zu uhr noch auch habe kannst "
        "milch eier einkaufsliste termin alle"
    ),
    "pt": _words_of(
        "não você voce obrigado obrigada olá amanhã amanha hoje lembre lembra lembrar lembrete com uma "
        "para mãe comprar lista adicionar adiciona bom dia boa noite tarde por favor meu minha da dos "
        "das ao é está eu ligar leite ovos pão mercado oi"
    ),
    "it": _words_of(
        "il gli della che è sono per con una domani oggi ricordami ricorda grazie buongiorno buonasera "
        "lista comprare chiamare mamma aggiungi spesa latte uova pane alle alla di del mi"
    ),
}
#: A greeting or thanks that says the language alone ("hola", "merci", "danke").
_ALONE = _words_of(
    "hola gracias bonjour bonsoir merci danke obrigado obrigada olá grazie buongiorno buonasera"
)
#: English words a request to Memo is made of (Hebrew words are counted by their letters); not
#: the ones German, Spanish or Italian write too ("in", "am", "a", "me", "no").
_ENGLISH = _words_of(
    "the to and my at of for on is it i you your please remind reminder reminders add list lists "
    "call buy tomorrow today tonight what when how can with from this that what's i'm don't it's "
    "delete remove show note notes save set every morning evening night week day hi hello hey "
    "thanks thank be are have need want about after before up out shopping groceries milk eggs bread "
    "mom dad meeting doctor dentist by tell get go pick send pay check clear undo done snooze"
)


def _script(word: str) -> str:
    """The script most of a word's letters are written in (the first word of their Unicode name)."""
    scripts = Counter(unicodedata.name(ch, "").split(" ")[0] for ch in word)
    return scripts.most_common(1)[0][0]


#: Enough of a message to tell its language (a long note is not read to its end for this).
_SAMPLE = 2000


def _words(text: str) -> list[str]:
    text = _ADDRESSES.sub(" ", _QUOTED.sub(" ", text[:_SAMPLE])).replace("’", "'")
    head, colon, _ = text.partition(":")
    words = [w.casefold() for w in _WORD.findall(text)]
    if colon:
        before = [w.casefold() for w in _WORD.findall(head)]
        if any(w in _ENGLISH or _script(w) == "HEBREW" for w in before):
            return before  # "save a note: …": what is saved is not the request's language
    return words


def other_language(text: str) -> str | None:
    """The language (an ISO 639-1 code) or the script (lowercase: "cyrillic", "arabic", "cjk", ...)
    of a message written in neither English nor Hebrew; None for English, Hebrew, or no words."""
    words = _words(text)
    if not words:
        return None
    scripts = [_script(w) for w in words]
    other = Counter(s for s in scripts if s not in _OWN_SCRIPTS)
    if other and sum(other.values()) > len(words) - sum(other.values()):
        return other.most_common(1)[0][0].lower()
    own = sum(1 for w, s in zip(words, scripts, strict=True) if s == "HEBREW" or w in _ENGLISH)
    hits = {code: sum(1 for w in words if w in known) for code, known in _WORDS.items()}
    foreign = sum(1 for w in words if any(w in known for known in _WORDS.values()))
    best = max(hits, key=lambda code: hits[code])
    if foreign >= 2 and foreign >= 3 * own:
        return best
    if own == 0 and len(words) <= 2 and any(w in _ALONE for w in words):
        return best
    return None
