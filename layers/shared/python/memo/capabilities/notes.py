"""Notes ("second brain"): save, search, update, delete, delete_all."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from pydantic import Field

from memo.capabilities.base import ExecutionContext, ExecutionResult
from memo.capabilities.common import NOT_FOUND, Args, entity_id, failure, say, undo_data, undo_for
from memo.capabilities.items import Note, Revision
from memo.capabilities.store import ItemsRepository
from memo.observability import logger
from memo.settings import DEFAULT_NOTE_MAX_CHARS
from memo.text.language import Language
from memo.text.matching import rank
from memo.text.wording import quote

CAPABILITY = "notes"
#: Search results returned to the reply.
SEARCH_LIMIT = 10
_SUMMARY_CHARS = 40
#: A note longer than the configured limit (`MEMO_NOTE_MAX_CHARS`) is refused and nothing is saved.
NOTE_TOO_LONG = "NOTE_TOO_LONG"
#: What a result carries of a note among several found: its first characters (the reply's bullet).
LISTED_CHARS = 200
#: What a result carries of a note shown alone (found alone, saved, updated): one WhatsApp message
#: holds it; a longer note is cut and its length said. A result never carries a whole long note, so
#: it stays small for Step Functions, the ledger and the reply (`memo.executor.results`).
SHOWN_CHARS = 3_500


def too_long(language: Language, chars: int, limit: int) -> str:
    """A note over the limit: how long it is, the limit, and what to do instead."""
    return say(
        language,
        f"That note is {chars:,} characters long, and I keep notes of up to {limit:,} characters, "
        "so I didn't save it. Could you shorten it, or send it as a few shorter notes?",
        f"הפתק הזה ארוך מדי: {chars:,} תווים, ואני שומר פתקים של עד {limit:,} תווים, אז לא שמרתי אותו. "
        "אפשר לקצר אותו, או לשלוח אותו בכמה פתקים קצרים יותר?",
    )


def shown(text: str, limit: int = SHOWN_CHARS) -> dict[str, object]:
    """A note's text as a result carries it: whole up to `limit` characters; a longer one as its
    first `limit` characters and an ellipsis, with its length (`chars`)."""
    return {"text": text} if len(text) <= limit else {"text": text[:limit] + "…", "chars": len(text)}


class SaveNoteArgs(Args):
    text: str = Field(min_length=1)


class SearchNotesArgs(Args):
    query: str = ""


class UpdateNoteArgs(Args):
    note_ids: list[str] = Field(min_length=1, max_length=1)
    #: what the person said the note should say: all of it, or the part after "is" (`revised_text`)
    text: str = Field(min_length=1)
    #: `text` is the whole note, as the question about it showed (no `revised_text`)
    whole: bool | None = None
    #: `text` is added at the note's end (`appended`)
    append: bool | None = None


#: "wifi password is sunshine42", "gate code: 4321", "הקוד של השער הוא 4321": what a note is about,
#: then its value.
_SUBJECT_VALUE = re.compile(
    r"^(?P<subject>.+?)(?P<sep>\s+(?:is|are|=)\s+|\s*[:=]\s*|\s+(?:הוא|היא|זה)\s+)(?P<value>\S.*)$", re.I
)


def has_a_value(text: str) -> bool:
    """Whether a note reads as something and its value ("gate code is 4321"), so that a value said
    alone ("actually it's 4312") replaces the value and nothing else."""
    return _SUBJECT_VALUE.match(text.strip()) is not None


def note_subject(text: str) -> str | None:
    """What a note of a subject and its value is about ("gate code is 4321" -> "gate code"), else None."""
    match = _SUBJECT_VALUE.match(text.strip())
    return match.group("subject") if match is not None else None


def revised_text(old: str, said: str) -> str:
    """The note `old` as `said` revises it: "wifi password is sunshine42" + "sunshine43" ->
    "wifi password is sunshine43" (a value alone replaces the value); anything that reads as a whole
    note ("wifi password is sunshine43", "the gate code: 1234") replaces the whole note."""
    said = said.strip()
    note = _SUBJECT_VALUE.match(old.strip())
    if _SUBJECT_VALUE.match(said) or (
        note is not None and said.casefold().startswith(note.group("subject").casefold())
    ):
        return said
    if note is None:
        return _with_part(old.strip(), said, from_start=False) or _value_swapped(old.strip(), said) or said
    value = note.group("value")
    return f"{note.group('subject')}{note.group('sep')}{_with_part(value, said, from_start=True) or said}"


def _value_swapped(text: str, said: str) -> str | None:
    """ "customer number at the electric company 445566" + "778899": a value alone (one word with
    a digit) replaces the note's one word with a digit; None when the note has none or several."""
    if len(said.split()) != 1 or not any(ch.isdigit() for ch in said):
        return None
    words = text.split(" ")
    valued = [i for i, word in enumerate(words) if any(ch.isdigit() for ch in word)]
    if len(valued) != 1:
        return None
    words[valued[0]] = said
    return " ".join(words)


def appended(old: str, added: str) -> str:
    """ "party: balloons" + "candles" -> "party: balloons, candles"; a note that already ends with
    what is added stays as it is (a re-run after a crash adds nothing twice). A note of lines gets
    a new line; one that ends with ":" gets the words after it."""
    old, added = old.rstrip(), added.strip()
    if old.casefold().endswith(added.casefold()):
        return old
    if "\n" in old:
        return f"{old}\n{added}"
    return f"{old} {added}" if old.endswith(":") else f"{old}, {added}"


def _with_part(text: str, said: str, *, from_start: bool) -> str | None:
    """ "parked on level 3" + "level 4" -> "parked on level 4": words said of a part of the text
    (their first word is one of its words) replace as many words from there, and the rest stays;
    None when they name no part of it (a value said alone replaces the whole value). A note's
    first word starts a whole new note ("buy a gift for dana" + "buy flowers for noa") unless it
    starts a value, of which the words may still name a part ("at 5pm in room 3" + "at 6pm")."""
    words, new = text.split(), said.split()
    if len(new) < 2:
        return None
    first = new[0].casefold()

    def names(word: str) -> bool:  # "בקומה" is "קומה" after a Hebrew one-letter prefix
        return word.casefold() == first or (word[:1] in _HE_PREFIXES and word[1:].casefold() == first)

    at = max((i for i, word in enumerate(words) if names(word)), default=None)
    if at is None or (at == 0 and not (from_start and len(new) < len(words))):
        return None
    lead = words[at][: len(words[at]) - len(new[0])]  # the prefix the note's word had, kept
    return " ".join([*words[:at], lead + new[0], *new[1:], *words[at + len(new) :]])


_HE_PREFIXES = frozenset("בלהמושכ")


class DeleteNotesArgs(Args):
    note_ids: list[str] = Field(min_length=1)


class DeleteAllNotesArgs(Args):
    # The notes "all" meant when the plan was resolved (and approved); None: every note.
    note_ids: list[str] | None = None


def note_after(old: str, said: str, *, whole: bool | None = None, append: bool | None = None) -> str:
    """What the note `old` reads after an update that says `said`: all of it (`whole`), added at
    its end (`append`), or revised (`revised_text`). A question about the update shows this text."""
    if whole:
        return said
    return appended(old, said) if append else revised_text(old, said)


def _brief(note: Note, limit: int = LISTED_CHARS) -> dict[str, object]:
    return {"id": note.note_id, **shown(note.text, limit), "createdAt": note.created_at.isoformat()}


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SUMMARY_CHARS else text[: _SUMMARY_CHARS - 1] + "…"


class NoteOperations:
    def __init__(
        self,
        repository: ItemsRepository,
        clock: Callable[[], datetime],
        *,
        max_chars: int = DEFAULT_NOTE_MAX_CHARS,
    ) -> None:
        self._repo = repository
        self._clock = clock
        self._max_chars = max_chars

    def _too_long(self, action: str, text: str, ctx: ExecutionContext) -> ExecutionResult | None:
        """The refusal of a note over the limit (the turn refuses it first; this holds for any path)."""
        if len(text) <= self._max_chars:
            return None
        logger.warning("NOTE_TOO_LONG", extra={"chars": len(text), "limit": self._max_chars})
        return failure(CAPABILITY, action, NOTE_TOO_LONG, too_long(ctx.language, len(text), self._max_chars))

    def save(self, args: SaveNoteArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        refused = self._too_long("save", args.text, ctx)
        if refused is not None:
            return refused
        now = self._clock()
        note = Note(note_id=entity_id(ctx), thread_id=ctx.thread_id, text=args.text, created_at=now)
        # "undo" right after deletes it again (no button).
        if not self._repo.put_note(note, undo=undo_for(ctx, now)):
            logger.info("NOTE_SAVE_REPLAYED", extra={"noteId": note.note_id})
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="save",
            data=shown(args.text),
            external_ids={"noteId": note.note_id},
            summary=say(
                lang,
                f"saved note {quote(_short(args.text), lang)}",
                f"שמרתי פתק {quote(_short(args.text), lang)}",
            ),
        )

    def search(self, args: SearchNotesArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        notes = self._repo.list_notes(ctx.thread_id)
        query = args.query.strip()
        matches = [s.item for s in rank(query, notes, lambda n: n.text)] if query else notes
        found = matches[:SEARCH_LIMIT]
        # Ids and the notes' first characters, never whole notes: a listing of long notes stays
        # small; the reply says how many more matched.
        limit = SHOWN_CHARS if len(found) == 1 else LISTED_CHARS
        data: dict[str, object] = {
            "query": query,
            "notes": [_brief(n, limit) for n in found],
            "total": len(notes),
            "more": len(matches) - len(found),
        }
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="search",
            data=data,
            summary=say(lang, f"found {len(found)} note(s)", f"מצאתי {len(found)} פתקים"),
        )

    def update(self, args: UpdateNoteArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        (note_id,) = args.note_ids
        note = next((n for n in self._repo.list_notes(ctx.thread_id) if n.note_id == note_id), None)
        # A re-run after a crash finds the note already revised: revising it again gives the same text.
        text = (
            args.text
            if note is None
            else note_after(note.text, args.text, whole=args.whole, append=args.append)
        )
        refused = self._too_long("update", text, ctx)
        if refused is not None:
            return refused
        updated = self._revise(note, text, ctx) if note is not None else None
        if note is None or updated is None:
            return failure(
                CAPABILITY,
                "update",
                NOT_FOUND,
                say(lang, "I couldn't find that note anymore.", "לא מצאתי את הפתק הזה יותר."),
            )
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="update",
            data={**shown(updated.text), "before": shown(note.text, LISTED_CHARS)["text"]},
            external_ids={"noteId": note_id},
            summary=say(
                lang,
                f"updated note {quote(_short(updated.text), lang)}",
                f"עדכנתי את הפתק {quote(_short(updated.text), lang)}",
            ),
        )

    def _revise(self, note: Note, text: str, ctx: ExecutionContext) -> Note | None:
        """The note with its new text, the text it had kept for undo in the same write. A note that
        reads the new text already (a re-run after a crash, or nothing to change) is not written:
        its undo keeps what the first attempt replaced."""
        if text == note.text:
            return note
        now = self._clock()
        kept = Revision(undo=undo_for(ctx, now), was=note)
        return self._repo.update_note(
            ctx.thread_id, note.note_id, text=text, expected=note.text, changed_at=now, revision=kept
        )

    def delete(self, args: DeleteNotesArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        undo = undo_for(ctx, self._clock())
        deleted = [
            gone
            for note_id in args.note_ids
            if (gone := self._repo.delete_note(ctx.thread_id, note_id, undo=undo)) is not None
        ]
        if not deleted:
            return failure(
                CAPABILITY,
                "delete",
                NOT_FOUND,
                say(lang, "I couldn't find that note anymore.", "לא מצאתי את הפתק הזה יותר."),
            )
        ids = [n.note_id for n in deleted]
        texts = ", ".join(quote(_short(n.text), lang) for n in deleted)
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="delete",
            data={
                "deleted": [_brief(n) for n in deleted],
                "missing": len(args.note_ids) - len(deleted),
                **undo_data(undo),
            },
            external_ids={"noteId": ids[0]} if len(ids) == 1 else {"noteIds": ids},
            summary=say(lang, f"deleted note {texts}", f"מחקתי את הפתק {texts}"),
        )

    def delete_all(self, args: DeleteAllNotesArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        every = [n.note_id for n in self._repo.list_notes(ctx.thread_id)]
        ids = every if args.note_ids is None else args.note_ids
        # "all my notes except the wifi one": some are kept, and "all" would say otherwise
        kept = set(every) - set(ids)
        undo = undo_for(ctx, self._clock())
        gone = [
            n
            for note_id in ids
            if (n := self._repo.delete_note(ctx.thread_id, note_id, undo=undo)) is not None
        ]
        deleted = [n.note_id for n in gone]
        # A few are named, as a delete of reminders names them ("Deleted 1 note: “gym locker 341”").
        titles = {"titles": [_brief(n) for n in gone]} if len(gone) <= _NAMED_AT_MOST else {}
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="delete_all",
            data={"count": len(deleted), **titles, **(undo_data(undo) if deleted else {})},
            external_ids={"noteIds": deleted} if deleted else {},
            summary=say(lang, f"deleted all notes ({len(deleted)})", f"מחקתי את כל הפתקים ({len(deleted)})")
            if not kept
            else say(lang, *_deleted_some(len(deleted))),
        )


#: The most notes a delete of several names in its reply (more are counted).
_NAMED_AT_MOST = 5


def _deleted_some(count: int) -> tuple[str, str]:
    """ "deleted 2 notes", "מחקתי פתק אחד": a delete of some of the notes, in both languages."""
    if count == 1:
        return "deleted 1 note", "מחקתי פתק אחד"
    return f"deleted {count} notes", f"מחקתי {count} פתקים"
