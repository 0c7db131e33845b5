"""Which list a step means when the person did not name one ("put bananas on the list", "clear the
list", "remove the first item"): the one list that has items. With none, or several, the person is
told or asked to name it; a list is never guessed.
"""

from __future__ import annotations

from typing import Any

from memo.capabilities.common import say
from memo.capabilities.items import list_key
from memo.domain import PlanStep, TurnState
from memo.resolution.candidates import ItemsReader, Missing
from memo.text.matching import normalize
from memo.text.wording import he_list_name


def lists_with_items(state: TurnState, repository: ItemsReader) -> dict[str, str]:
    """Each list that has items, by its key, with the name it was first written under: synonyms
    ("shopping", "קניות") are one list."""
    names: dict[str, str] = {}
    for item in repository.all_list_items(state.thread_id):
        names.setdefault(list_key(item.list_name), item.list_name)
    return names


def list_to_add_to(state: TurnState, repository: ItemsReader, args: dict[str, Any]) -> str | Missing:
    """ "Put bananas on the list": the one list there is. With none or several, the person is asked
    to name it (nothing is added to a list Memo would have to guess)."""
    language = state.input.language
    names = lists_with_items(state, repository)
    if len(names) == 1:
        return next(iter(names.values()))
    items = args.get("items")
    what = ", ".join(str(i) for i in items) if isinstance(items, list) and items else ""
    listed = ", ".join(sorted(names.values()))
    lists_en = f" You have: {listed}." if names else ""
    lists_he = f" יש לך: {listed}." if names else ""
    return Missing(
        say(
            language,
            f"Which list should I add {what} to?{lists_en} For example: “add {what} to my shopping list”.",
            f"לאיזו רשימה להוסיף את {what}?{lists_he} למשל: „תוסיף {what} לרשימת הקניות”.",
        )
    )


def list_to_clear(state: TurnState, repository: ItemsReader) -> str | Missing:
    """ "Clear the list": the one list that has items. Several are named and the person says which
    (nothing is cleared on a guess); none is said."""
    language = state.input.language
    names = lists_with_items(state, repository)
    if not names:
        return Missing(say(language, "Your lists are already empty.", "הרשימות שלך כבר ריקות."))
    if len(names) > 1:
        listed = ", ".join(sorted(names.values()))
        return Missing(
            say(
                language,
                f"You have more than one list ({listed}). Which one should I clear? "
                f"For example: “clear the {next(iter(names.values()))} list”.",
                f"יש לך יותר מרשימה אחת ({listed}). איזו לנקות? "
                f"למשל: „תנקה את רשימת {he_list_name(next(iter(names.values())))}”.",
            )
        )
    return next(iter(names.values()))


def list_for_position(state: TurnState, repository: ItemsReader) -> str | Missing:
    """ "Remove the first item" with no list named: the one list that has items; with several,
    which list is asked."""
    language = state.input.language
    names = list(lists_with_items(state, repository).values())
    if len(names) == 1:
        return names[0]
    if not names:
        return Missing(say(language, "Your lists are empty.", "הרשימות שלך ריקות."))
    listed = ", ".join(sorted(names))
    return Missing(
        say(
            language,
            f"Which list do you mean? You have: {listed}. "
            f"For example: “remove the first item from my {names[0]} list”.",
            f"לאיזו רשימה התכוונת? יש לך: {listed}. למשל: „תוריד את הפריט הראשון מרשימת {he_list_name(names[0])}”.",
        )
    )


#: Words that say how much of a list, not which list: "clear the whole grocery list" is the grocery
#: list ("כל רשימת הקניות" is the shopping list). The rule planner already drops them from the name it
#: reads (`memo.planner.intents.list_words`); this catches a name the OpenAI planner kept them in.
_HOW_MUCH = frozenset(
    {"whole", "entire", "full", "complete", "current", "all", "of", "my", "the", "כל", "כולה", "המלאה"}
)


def named_list_to_clear(state: TurnState, repository: ItemsReader, name: str) -> str | Missing:
    """A clear of a list the person named: that list when it has items; else the one list with items
    its name means once the words of how much are dropped ("the whole grocery list"); else they are
    told there is no such list (and which they have), so a clear never succeeds on nothing."""
    names = lists_with_items(state, repository)
    if list_key(name) in names:
        return name
    words = [w for w in name.split() if w.casefold() not in _HOW_MUCH]
    meant = list_key(" ".join(words)) if words else ""
    if meant in names:
        return names[meant]
    language = state.input.language
    if not names:
        return Missing(
            say(
                language,
                f"There's nothing on a “{name}” list, so there's nothing to clear.",
                f"אין כלום ברשימת „{name}”, אז אין מה לנקות.",
            )
        )
    listed = ", ".join(sorted(names.values()))
    return Missing(
        say(
            language,
            f"You have no “{name}” list. Your lists: {listed}. Which one should I clear?",
            f"אין לך רשימת „{name}”. הרשימות שלך: {listed}. איזו לנקות?",
        )
    )


def moved_where_it_is(state: TurnState, step: PlanStep, args: dict[str, Any]) -> str | None:
    """A thing taken off a list to go on the same list under its other name ("move the milk to the
    groceries list" when it is on the shopping list): no move, so it is not taken off. The words
    that say so; None for any other step (an exchange, "instead add oat milk", takes off another
    thing than it adds)."""
    plan = state.planner_output.plan if state.planner_output is not None else []
    if step.capability != "lists" or step.action != "remove" or not args.get("listName"):
        return None
    name, things = str(args["listName"]), _things(step)
    to = next(
        (
            str(other.constraints.get("listName"))
            for other in plan
            if other.capability == "lists"
            and other.action == "add"
            and list_key(str(other.constraints.get("listName", ""))) == list_key(name)
            and things
            and _things(other) == things
        ),
        None,
    )
    if to is None:
        return None
    if " ".join(to.casefold().split()) == " ".join(name.casefold().split()):
        return say(
            state.input.language, f"It's on your {name} list already.", f"זה כבר ברשימת {he_list_name(name)}."
        )
    return say(
        state.input.language,
        f"The {to} list is your {name} list, so it stays where it is.",
        f"רשימת {he_list_name(to)} היא רשימת {he_list_name(name)}, אז זה נשאר במקום.",
    )


def _things(step: PlanStep) -> frozenset[str]:
    """The words of the things a list step takes off or puts on."""
    items = step.changes.get("items")
    return frozenset(normalize(str(item)) for item in items) if isinstance(items, list) else frozenset()
