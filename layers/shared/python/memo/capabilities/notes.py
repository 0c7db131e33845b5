"""Notes ("second brain"): save, search, delete, delete_all."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pydantic import Field

from memo.capabilities.base import ExecutionContext, ExecutionResult
from memo.capabilities.common import NOT_FOUND, Args, entity_id, failure, say, undo_data, undo_for
from memo.capabilities.items import Note
from memo.capabilities.store import ItemsRepository
from memo.observability import logger
from memo.text.matching import rank
from memo.text.wording import quote

CAPABILITY = "notes"
#: Search results returned to the reply.
SEARCH_LIMIT = 10
_SUMMARY_CHARS = 40


class SaveNoteArgs(Args):
    text: str = Field(min_length=1)


class SearchNotesArgs(Args):
    query: str = ""


class DeleteNotesArgs(Args):
    note_ids: list[str] = Field(min_length=1)


class DeleteAllNotesArgs(Args):
    # The notes "all" meant when the plan was resolved (and approved); None: every note.
    note_ids: list[str] | None = None


def _brief(note: Note) -> dict[str, str]:
    return {"id": note.note_id, "text": note.text, "createdAt": note.created_at.isoformat()}


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SUMMARY_CHARS else text[: _SUMMARY_CHARS - 1] + "…"


class NoteOperations:
    def __init__(self, repository: ItemsRepository, clock: Callable[[], datetime]) -> None:
        self._repo = repository
        self._clock = clock

    def save(self, args: SaveNoteArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        note = Note(note_id=entity_id(ctx), thread_id=ctx.thread_id, text=args.text, created_at=self._clock())
        if not self._repo.put_note(note):
            logger.info("NOTE_SAVE_REPLAYED", extra={"noteId": note.note_id})
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="save",
            data={"text": args.text},
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
        found = [s.item for s in rank(query, notes, lambda n: n.text)] if query else notes
        found = found[:SEARCH_LIMIT]
        data: dict[str, object] = {"query": query, "notes": [_brief(n) for n in found], "total": len(notes)}
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="search",
            data=data,
            summary=say(lang, f"found {len(found)} note(s)", f"מצאתי {len(found)} פתקים"),
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
        ids = (
            [n.note_id for n in self._repo.list_notes(ctx.thread_id)]
            if args.note_ids is None
            else args.note_ids
        )
        undo = undo_for(ctx, self._clock())
        deleted = [
            note_id
            for note_id in ids
            if self._repo.delete_note(ctx.thread_id, note_id, undo=undo) is not None
        ]
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="delete_all",
            data={"count": len(deleted), **(undo_data(undo) if deleted else {})},
            external_ids={"noteIds": deleted} if deleted else {},
            summary=say(lang, f"deleted all notes ({len(deleted)})", f"מחקתי את כל הפתקים ({len(deleted)})"),
        )
