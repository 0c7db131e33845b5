"""The clarification round: an operator asks the submitter a question, the submitter answers."""

from __future__ import annotations

from typing import Any

from caseplatform import decisions
from caseplatform.commands.pipeline import CommandPipeline
from caseplatform.decisions import Stamp
from caseplatform.errors import AnswerRequired, QuestionRequired
from caseplatform.model import CaseRecord, Event
from caseplatform.ports import CaseSnapshot, Transition


class ClarificationCommands(CommandPipeline):
    def request_clarification(
        self,
        *,
        case_id: str,
        question: str | None,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        seen: CaseRecord | None = None,
    ) -> Event:
        if question is None or not question.strip():
            raise QuestionRequired("a clarification needs a question")
        args = {
            "case_id": case_id,
            "question": question,
            "notes": notes,
            "actor": actor,
            "request_id": request_id,
        }
        intent = self._accept(args, "request_clarification", default_kind="agent")
        clean_question = self._redact(question)

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            return decisions.request_clarification(
                snap, stamp, intent=intent, question=clean_question, policy=self._decision_policy
            )

        return self._run(intent, decide, seen).event

    def provide_clarification(
        self,
        *,
        case_id: str,
        answer: str | None,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        seen: CaseRecord | None = None,
    ) -> Event:
        if answer is None or not answer.strip():
            raise AnswerRequired("a clarification needs an answer")
        args = {
            "case_id": case_id,
            "answer": answer,
            "notes": notes,
            "actor": actor,
            "request_id": request_id,
        }
        intent = self._accept(args, "provide_clarification", default_kind="agent")
        clean_answer = self._redact(answer)

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            return decisions.provide_clarification(snap, stamp, intent=intent, answer=clean_answer)

        return self._run(intent, decide, seen).event
