"""Language detection: Hebrew or English by the script of the letters. A message in a language Memo
does not read: told by its script, or by the small words of Spanish, French, German, Portuguese and
Italian; never an English or Hebrew message with a foreign word, a name or a quoted phrase in it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.text import language as text_language
from memo.text.language import detect_language, other_language


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("hello there", "he", "en"),
        ("שלום מה נשמע", "en", "he"),
        ("תזכיר לי call mom", "en", "he"),
        ("👍", "he", "he"),
        ("5", "en", "en"),
    ],
)
def test_language_follows_the_script(text: str, default: str, expected: str) -> None:
    assert detect_language(text, default) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("תשמור את הקישור https://example.com/some/long/english/path", "he"),
        ("תשמור את המייל someone.with.a.long.name@example.com", "he"),
        ("save dana@example.co.il", "en"),
        ("ping a@b", "en"),  # no dot after the "@": a word like any other
    ],
)
def test_links_and_addresses_are_no_ones_language(text: str, expected: str) -> None:
    assert detect_language(text, "en") == expected


def test_a_long_word_with_signs_is_read_like_a_short_one() -> None:
    # Two hundred thousand characters without a space, "@" and "." among them: every letter counts
    # once, as in the short word (the address rule looks at each word once).
    word = "שלום@" + "a" * 5 + "." * 3
    assert detect_language(word * 1, "en") == detect_language(word * 20_000, "en")
    assert detect_language("x" * 200_000, "he") == "en"


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("recuérdame llamar a mamá mañana a las 5", "es"),
        ("Hola, ¿me puedes recordar comprar leche mañana?", "es"),
        ("hola!", "es"),
        ("gracias", "es"),
        ("Rappelle-moi d'appeler maman demain à 17h", "fr"),
        ("merci beaucoup", "fr"),
        ("Erinnere mich morgen um 9 Uhr an den Zahnarzt", "de"),
        ("Erinnere mich am Montag", "de"),
        ("Ricordami di chiamare la mamma domani", "it"),
        ("me lembra de ligar para minha mãe amanhã", "pt"),
        ("Напомни мне позвонить маме завтра в 5", "cyrillic"),
        ("Привет", "cyrillic"),
        ("купить молоко в Walmart", "cyrillic"),
        ("ذكرني بالاتصال بأمي غدا", "arabic"),
        ("明天提醒我给妈妈打电话", "cjk"),
        ("Γεια σου", "greek"),
    ],
)
def test_a_message_in_another_language_is_told(text: str, language: str) -> None:
    assert other_language(text) == language


@pytest.mark.parametrize(
    "text",
    [
        "remind me to call José at 5",
        "remind me to call Владимир at 5",
        "remind me to call Maria de la Cruz tomorrow",
        "Remind me about the Día de los Muertos party",
        "add croissants, baguette and pain au chocolat to the list",
        "add tortillas, queso, frijoles y chiles to the list",
        "remind me to buy jalapeños mañana",
        "add حمص to the shopping list",
        "remind me to buy 寿司 tomorrow",
        "save a note: el que no tiene dinga tiene de mandinga",
        "note “je ne regrette rien”",
        "remind me to practice je m'appelle Dana et j'ai trente ans",
        "tell Renée merci",
        "ciao",
        "תזכיר לי לקנות croissant",
        "תזכיר לי להתקשר לJosé",
        "תזכיר לי להתקשר לאלכסנדר מחר",
        "שמור פתק: hasta la vista, baby",
        "ok",
        "👍",
        "5",
        "",
        "https://es.wikipedia.org/wiki/la_casa_de_papel",
    ],
)
def test_english_or_hebrew_with_a_foreign_word_or_a_name_is_not_another_language(text: str) -> None:
    assert other_language(text) is None


def test_the_small_words_of_other_languages_are_none_of_the_english_ones() -> None:
    for known in text_language._WORDS.values():
        assert not known & text_language._ENGLISH


_ENGLISH_REQUESTS = [
    "remind me to call mom tomorrow at 5pm",
    "add milk and eggs to my shopping list",
    "what's on my list",
    "delete the dentist reminder",
    "save a note that the wifi password is on the fridge",
    "remind me every morning at 8 to take my pills",
]
_HEBREW_REQUESTS = ["תזכיר לי להתקשר לאמא מחר בחמש", "תוסיף חלב לרשימת הקניות", "מה יש לי ברשימה"]
_FOREIGN_WORDS = st.one_of(
    st.sampled_from(sorted(set().union(*text_language._WORDS.values()))),
    st.sampled_from(["José", "Владимир", "Jürgen", "حمص", "寿司", "Γιώργος", "Señor", "Ñandú"]),
    st.text(st.characters(categories=["Lu", "Ll", "Lo"]), min_size=1, max_size=12),
)


@given(
    request=st.sampled_from(_ENGLISH_REQUESTS + _HEBREW_REQUESTS),
    word=_FOREIGN_WORDS,
    position=st.integers(min_value=0, max_value=20),
)
def test_one_foreign_word_or_name_anywhere_never_makes_a_request_another_language(
    request: str, word: str, position: int
) -> None:
    words = request.split()
    words.insert(position % (len(words) + 1), word)
    assert other_language(" ".join(words)) is None


@given(
    language=st.sampled_from(sorted(text_language._WORDS)),
    data=st.data(),
)
def test_two_or_more_small_words_of_one_language_alone_are_that_language(
    language: str, data: st.DataObject
) -> None:
    words = data.draw(
        st.lists(st.sampled_from(sorted(text_language._WORDS[language])), min_size=2, max_size=8)
    )
    assert other_language(" ".join(words)) is not None
