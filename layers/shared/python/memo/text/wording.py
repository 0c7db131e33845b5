"""Small wording helpers every user-facing text uses: quoting a name, a list's name as it follows
"רשימת" in Hebrew, shortening to a length limit."""

from __future__ import annotations

from typing import Any

from memo.text.language import Language


def quote(text: Any, language: Language) -> str:
    """`text` in the language's quotation marks: „…” in Hebrew, “…” in English."""
    return f"„{text}”" if language == "he" else f"“{text}”"


#: The lists every language names (`memo.text.matching.list_synonym`'s keys), in Hebrew.
_HE_LIST_NAMES = {
    "shopping": "קניות",
    "todo": "משימות",
    "packing": "אריזה",
    "movies": "סרטים",
    "books": "ספרים",
    "gifts": "מתנות",
    "wish": "משאלות",
}


def he_list_name(name: Any) -> str:
    """A list's name as it follows "רשימת" in a Hebrew sentence: with the article on its first word
    when it starts with a Hebrew letter ("קניות" -> "הקניות", so "לרשימת הקניות"; "קניות לסופר" ->
    "הקניות לסופר"), else as it is ("shopping"). Names are kept without the article; one that came
    with it ("הקניות", "ההוצאות") does not get a second. A list every language names is said in
    Hebrew ("shopping" -> "הקניות")."""
    text = _HE_LIST_NAMES.get(str(name).strip().lower(), str(name))
    if not text or not "\u05d0" <= text[0] <= "\u05ea" or _has_article(text.split()[0]):
        return text
    return "ה" + text


def _has_article(word: str) -> bool:
    """ "ההוצאות", or a list word whose plain form is a name of the same list ("הקניות", "המשימות")."""
    # Not at import: the webhook's cold start imports this module, and matching brings rapidfuzz.
    from memo.text.matching import list_synonym

    return word.startswith("הה") or (
        word.startswith("ה") and list_synonym(word) == list_synonym(word[1:]) is not None
    )


def shorten(text: str, limit: int) -> str:
    """`text` on one line (whitespace collapsed), cut to `limit` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def preview(text: str, limit: int) -> str:
    """`text` as it is when it has at most `limit` characters; else its first `limit - 1` (its lines
    kept) and an ellipsis. What a result, a question or a reply carries of a text that may be long."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
