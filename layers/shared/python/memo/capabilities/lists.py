"""Named lists (shopping, todo, ...): add, remove, change an item's words, show, clear.

A list exists as long as it has items; its name is normalised (`items.list_key`), and the reply
shows it as the user wrote it. Adding an item that is already on the list (same normalised text)
does not add it twice; the same thing in another amount ("2 milk" with "milk" on the list) changes
that line's words to the amount said, kept for undo, and "milk" with "2 milk" on it is there already
(`memo.text.list_amounts`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from pydantic import Field

from memo.capabilities.base import ExecutionContext, ExecutionResult
from memo.capabilities.common import NOT_FOUND, Args, entity_id, failure, say, undo_data, undo_for
from memo.capabilities.items import ListItem, Revision, Tombstone, list_key
from memo.capabilities.store import ItemsRepository
from memo.text.language import Language
from memo.text.list_amounts import amount_and_thing
from memo.text.matching import normalize
from memo.text.wording import he_list_name, quote

CAPABILITY = "lists"
#: The words of one item a change may give it (an added item's words are bounded by the message).
MAX_ITEM_CHARS = 200


class AddListItemsArgs(Args):
    list_name: str = Field(min_length=1)
    items: list[str] = Field(min_length=1)


class CountLeft(Args):
    """ "one tomato" off "3 tomatoes": the line's words as they were, and with the count left."""

    was: str = Field(min_length=1)
    left: str = Field(min_length=1, max_length=MAX_ITEM_CHARS)


class RemoveListItemsArgs(Args):
    list_name: str = Field(min_length=1)
    item_ids: list[str] = Field(min_length=1)
    not_found: list[str] = Field(default_factory=list)  # the user's words that matched nothing
    #: of `item_ids`, the lines some of which is taken off (`memo.text.list_counts`), by id
    lower: dict[str, CountLeft] | None = None
    #: lines a count was said for that they do not count the same way: left as they are
    unclear: list[str] | None = None


class UpdateListItemArgs(Args):
    """ "change eggs to 12 eggs": the one item, and the words it gets."""

    list_name: str = Field(min_length=1)
    item_ids: list[str] = Field(min_length=1, max_length=1)
    text: str = Field(min_length=1, max_length=MAX_ITEM_CHARS)


#: The list name of a request that names none ("what's on my list?", "clear the list", "מה יש ברשימה"):
#: the list is the one that has items; which one, or whether to ask, is decided from what is stored.
UNNAMED_LIST = "default"


class ShowListArgs(Args):
    list_name: str = Field(min_length=1)
    #: "how many things are on my list?": the reply says how many
    how_many: bool | None = None


class ClearListArgs(Args):
    list_name: str = Field(min_length=1)
    # The items the list held when the plan was resolved (and approved): an item added afterwards
    # is not cleared by an older approval. None: every item of the list (no pinned set).
    item_ids: list[str] | None = None


class ShowAllListsArgs(Args):
    """ "what lists do I have?": no arguments."""


def _not_there(list_name: str, lang: Language, *, meanwhile: bool) -> ExecutionResult:
    """The item a change was for is gone, or (`meanwhile`) was changed or taken off since."""
    he_name = he_list_name(list_name)
    if meanwhile:
        en = f"That item changed on the {list_name} list meanwhile, so I left it as it is."
        he = f"הפריט הזה השתנה ברשימת {he_name} בינתיים, אז השארתי אותו כמו שהוא."
    else:
        en, he = f"That item is no longer on the {list_name} list.", f"הפריט הזה כבר לא ברשימת {he_name}."
    return failure(CAPABILITY, "update", NOT_FOUND, say(lang, en, he))


def _same_thing(
    text: str, items: list[ListItem], things: dict[str, str], skipped: set[str]
) -> ListItem | None:
    """The item on the list of the same thing as `text` in another amount ("milk" for "2 milk");
    `things`: each item's thing, by its id."""
    thing = amount_and_thing(text)[1]
    return next((i for i in items if i.item_id not in skipped and things[i.item_id] == thing), None)


def _texts(items: list[ListItem]) -> list[str]:
    return [i.text for i in items]


class ListOperations:
    def __init__(self, repository: ItemsRepository, clock: Callable[[], datetime]) -> None:
        self._repo = repository
        self._clock = clock

    def add(self, args: AddListItemsArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        existing = self._repo.list_items(ctx.thread_id, args.list_name)
        present = {normalize(i.text) for i in existing}
        existing_ids = {i.item_id for i in existing}
        things = {i.item_id: amount_and_thing(i.text)[1] for i in existing}  # "2 milk": milk
        added: list[str] = []
        already: list[str] = []
        amounts: list[dict[str, str]] = []
        ids: list[str] = []
        now = self._clock()
        undo = undo_for(ctx, now)  # "undo" right after takes what this added off again (no button)
        for index, raw in enumerate(args.items):
            text = " ".join(raw.split())
            item_id = entity_id(ctx, str(index))
            if not text:
                continue
            if normalize(text) in present and item_id not in existing_ids:
                already.append(text)
                continue
            twin = _same_thing(text, existing, things, {*ids, item_id})  # (a retry finds its own item)
            if twin is not None:
                changed = self._amount_said(twin, text, now, undo, ctx)
                amounts += [{"from": twin.text, "to": text}] if changed else []
                ids += [twin.item_id] if changed else []  # the item this add changed: "it" next, and its undo
                already += [] if changed else [twin.text]
                present.add(normalize(text))
                continue
            item = ListItem(
                item_id=item_id,
                thread_id=ctx.thread_id,
                list_name=args.list_name,
                text=text,
                # "milk and eggs" are listed in the order the person wrote them (lists sort by time).
                created_at=now + timedelta(microseconds=index),
            )
            self._repo.add_list_item(item, undo=undo)  # False on a retried step: the item is there already
            present.add(normalize(text))
            added.append(text)
            ids.append(item_id)
        contents = _texts(self._repo.list_items(ctx.thread_id, args.list_name))
        names = ", ".join(added) if added else ", ".join(already)
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="add",
            data={
                "listName": args.list_name,
                "added": added,
                "alreadyThere": already,
                "amounts": amounts,
                "items": contents,
            },
            external_ids={"listItemIds": ids, "listKey": list_key(args.list_name)},
            summary=say(
                lang,
                f"added {names} to the {args.list_name} list",
                f"הוספתי {names} לרשימת {he_list_name(args.list_name)}",
            ),
        )

    def _amount_said(
        self, item: ListItem, text: str, now: datetime, undo: Tombstone, ctx: ExecutionContext
    ) -> bool:
        """ "2 milk" with "milk" on the list: its line says the amount now (kept for undo); False when
        `text` says no amount ("milk" with "2 milk" on it: there already) or the item changed
        meanwhile. Never a second line of the same thing."""
        if not amount_and_thing(text)[0]:
            return False
        changed = self._repo.update_list_item(
            ctx.thread_id,
            item.list_name,
            item.item_id,
            text=text,
            expected=item.text,
            changed_at=now,
            revision=Revision(undo=undo, was=item),
        )
        return changed is not None

    def remove(self, args: RemoveListItemsArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        undo = undo_for(ctx, self._clock())
        lowered = self._lower(args, ctx, undo)
        removed = [
            gone
            for item_id in args.item_ids
            if item_id not in (args.lower or {})
            and (gone := self._repo.remove_list_item(ctx.thread_id, args.list_name, item_id, undo=undo))
            is not None
        ]
        removed.sort(key=lambda i: i.created_at)  # named in the list's order, as it is shown
        if not removed and not lowered:
            return failure(
                CAPABILITY,
                "remove",
                NOT_FOUND,
                say(
                    lang,
                    f"Those items are no longer on the {args.list_name} list.",
                    f"הפריטים האלה כבר לא ברשימת {he_list_name(args.list_name)}.",
                ),
            )
        contents = _texts(self._repo.list_items(ctx.thread_id, args.list_name))
        names = ", ".join(_texts(removed))
        changes = ", ".join(f"{was} → {now}" for was, now in lowered.values())
        # The list as the person named it when the items went on ("קניות"), not a synonym's key.
        list_name = (removed[0].list_name if removed else "") or args.list_name
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="remove",
            data={
                "listName": list_name,
                "removed": _texts(removed),
                "lowered": [{"from": was, "to": now} for was, now in lowered.values()],
                "unclear": list(args.unclear or []),
                "notFound": list(args.not_found),
                "items": contents,
                **undo_data(undo),
            },
            external_ids={
                "listItemIds": [i.item_id for i in removed] + list(lowered),
                "listKey": list_key(args.list_name),
            },
            summary=say(
                lang,
                "; ".join(
                    ([f"removed {names} from the {list_name} list"] if names else [])
                    + ([f"changed {changes} on the {list_name} list"] if changes else [])
                ),
                "; ".join(
                    ([f"הסרתי {names} מרשימת {he_list_name(list_name)}"] if names else [])
                    + ([f"שיניתי {changes} ברשימת {he_list_name(list_name)}"] if changes else [])
                ),
            ),
        )

    def _lower(
        self, args: RemoveListItemsArgs, ctx: ExecutionContext, undo: Tombstone
    ) -> dict[str, tuple[str, str]]:
        """ "one tomato" off "3 tomatoes": each such line says the count left ("2 tomatoes"), kept for
        undo; by id, (the words it had, the words it has). A line changed or taken off since the
        request was read is left as it is; a re-run finds its new words there already."""
        if not args.lower:
            return {}
        items = {i.item_id: i for i in self._repo.list_items(ctx.thread_id, args.list_name)}
        lowered: dict[str, tuple[str, str]] = {}
        for item_id, count in args.lower.items():
            item = items.get(item_id)
            if item is None or item_id not in args.item_ids:
                continue
            was = item.model_copy(update={"text": count.was})
            changed = self._repo.update_list_item(
                ctx.thread_id,
                item.list_name,
                item_id,
                text=count.left,
                expected=count.was,
                changed_at=self._clock(),
                revision=Revision(undo=undo, was=was),
            )
            if changed is not None:
                lowered[item_id] = (count.was, count.left)
        return lowered

    def update(self, args: UpdateListItemArgs, ctx: ExecutionContext) -> ExecutionResult:
        """The item's words replaced in its place on the list, what it said kept for "undo". A re-run
        after a crash finds the new words there already and reports the same change."""
        lang = ctx.language
        (item_id,) = args.item_ids
        text = " ".join(args.text.split())
        items = self._repo.list_items(ctx.thread_id, args.list_name)
        item = next((i for i in items if i.item_id == item_id), None)
        if item is None:
            return _not_there(args.list_name, lang, meanwhile=False)
        now = self._clock()
        undo = undo_for(ctx, now)
        changed: ListItem | None = item
        if item.text != text:
            changed = self._repo.update_list_item(
                ctx.thread_id,
                item.list_name,
                item_id,
                text=text,
                expected=item.text,
                changed_at=now,
                revision=Revision(undo=undo, was=item),
            )
        if changed is None:  # changed or taken off meanwhile: left as it is
            return _not_there(args.list_name, lang, meanwhile=True)
        list_name = item.list_name or args.list_name
        # The list as read, with the one item changed: no second read.
        contents = [changed.text if i.item_id == item_id else i.text for i in items]
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="update",
            data={
                "listName": list_name,
                "from": item.text,
                "to": changed.text,
                "items": contents,
                **undo_data(undo),
            },
            external_ids={"listItemIds": [item_id], "listKey": list_key(args.list_name)},
            summary=say(
                lang,
                f"changed {item.text} to {changed.text} on the {list_name} list",
                f"שיניתי את {item.text} ל{changed.text} ברשימת {he_list_name(list_name)}",
            ),
        )

    def show(self, args: ShowListArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        if args.list_name == UNNAMED_LIST:
            return self._show_unnamed(ctx, how_many=args.how_many is True)
        items = self._repo.list_items(ctx.thread_id, args.list_name)
        data: dict[str, object] = {"listName": args.list_name, "items": _texts(items)}
        if args.how_many:
            data["howMany"] = True
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="show",
            data=data,
            external_ids={"listKey": list_key(args.list_name)},
            summary=say(
                lang,
                f"showed the {quote(args.list_name, lang)} list ({len(items)} items)",
                f"הצגתי את רשימת {he_list_name(args.list_name)} ({len(items)} פריטים)",
            ),
        )

    def _show_unnamed(self, ctx: ExecutionContext, *, how_many: bool = False) -> ExecutionResult:
        """ "What's on my list?": the one list that has items is shown; several are each shown, with
        their names; none is said. Reading shows everything there is, so nothing needs asking."""
        lang = ctx.language
        lists: dict[str, tuple[str, list[str]]] = {}
        for item in self._repo.all_list_items(ctx.thread_id):  # oldest first
            name, texts = lists.get(list_key(item.list_name), (item.list_name, []))
            lists[list_key(item.list_name)] = (item.list_name, [*texts, item.text])
        if len(lists) == 1:
            ((name, texts),) = lists.values()
            return self.show(ShowListArgs(list_name=name, how_many=how_many or None), ctx)
        shown = [{"name": name, "items": texts} for name, texts in lists.values()]
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="show",
            data={"lists": shown},
            external_ids={"listKeys": list(lists)},
            summary=say(lang, f"showed your lists ({len(shown)})", f"הצגתי את הרשימות ({len(shown)})"),
        )

    def show_all(self, args: ShowAllListsArgs, ctx: ExecutionContext) -> ExecutionResult:
        """Every list that has items: its name as the user last wrote it, and how many items."""
        lang = ctx.language
        names: dict[str, str] = {}
        counts: dict[str, int] = {}
        for item in self._repo.all_list_items(ctx.thread_id):  # oldest first
            key = list_key(item.list_name)
            names[key] = item.list_name  # the newest item's words
            counts[key] = counts.get(key, 0) + 1
        shown = [{"name": names[key], "count": counts[key]} for key in names]
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="show_all",
            data={"lists": shown},
            external_ids={"listKeys": list(names)},
            summary=say(lang, f"showed your lists ({len(shown)})", f"הצגתי את הרשימות ({len(shown)})"),
        )

    def clear(self, args: ClearListArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        undo = undo_for(ctx, self._clock())
        cleared = self._repo.clear_list(ctx.thread_id, args.list_name, item_ids=args.item_ids, undo=undo)
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="clear",
            data={
                "listName": args.list_name,
                "count": len(cleared),
                # The items approved (all shown, or those an answer kept): the reply names what went,
                # never "cleared" for a list that still has items.
                **({"removedItems": [i.text for i in cleared]} if args.item_ids is not None else {}),
                **(undo_data(undo) if cleared else {}),
            },
            external_ids={"listKey": list_key(args.list_name)},
            summary=say(
                lang,
                f"cleared the {quote(args.list_name, lang)} list ({len(cleared)} items)",
                f"ניקיתי את רשימת {he_list_name(args.list_name)} ({len(cleared)} פריטים)",
            ),
        )
