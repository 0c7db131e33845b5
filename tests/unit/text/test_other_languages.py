"""A message in a language Memo does not read: told by its script, or by the small words of Spanish,
French, German, Portuguese and Italian; never an English or Hebrew message with a foreign word, a
name or a quoted phrase in it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.text import other_languages
from memo.text.other_languages import other_language


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
    for known in other_languages._WORDS.values():
        assert not known & other_languages._ENGLISH


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
    st.sampled_from(sorted(set().union(*other_languages._WORDS.values()))),
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
    language=st.sampled_from(sorted(other_languages._WORDS)),
    data=st.data(),
)
def test_two_or_more_small_words_of_one_language_alone_are_that_language(
    language: str, data: st.DataObject
) -> None:
    words = data.draw(
        st.lists(st.sampled_from(sorted(other_languages._WORDS[language])), min_size=2, max_size=8)
    )
    assert other_language(" ".join(words)) is not None
