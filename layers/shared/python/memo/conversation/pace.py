"""A sender's pace: how many of one person's messages Memo turns, and what happens past it.

A token bucket of `burst` messages that refills at `per_minute`, kept as one instant (the generic
cell rate algorithm): `full_at` is when the bucket is whole again. A message is turned when the bucket
holds a token for it (`full_at` then moves one interval on); past it the message is not turned at
all: no read receipt, no planner, no LLM, nothing written. The first message past the limit in a run
of messages gets one short answer ("you're sending a lot, give me a moment"); the others of that run
are dropped with a log line and a metric only. A run ends once the sender has been quiet long enough
for the whole bucket to refill (`burst` / `per_minute` minutes), so the next flood is told again.

Dropped, not queued: a queued flood would still be turned, only later, and keep the person's later
messages (and the model) waiting behind it. The notice says to send again what gets no answer.

The pace is the sender's, not the turn path's: a message counts at the time WhatsApp took it from
the sender (its `timestamp`), so a backlog turned slowly lets no more through than the same flood
turned at once. A time that cannot be the sending time (none, ahead of the turn's clock, or more
than `LATEST_SENDING` old: a delivery retried long after) counts at the turn's own time instead.

The state is kept on the message the turn writes anyway (`memo.conversation.model.MemoryMessage.pace`,
a few dozen bytes on the user's message item): the thread's one query reads it back
(`ThreadSnapshot.pace`), a dropped message writes nothing, and a thread's messages are turned one at
a time (the turn queue is FIFO per thread), so two turns never race on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pydantic import AwareDatetime, BaseModel, ConfigDict

from memo.text.language import Language

DEFAULT_BURST = 20
DEFAULT_PER_MINUTE = 30.0
LATEST_SENDING = timedelta(hours=1)


@dataclass(frozen=True)
class PaceLimits:
    """`burst` messages at once, then `per_minute` (`MEMO_RATE_BURST`, `MEMO_RATE_PER_MINUTE`)."""

    burst: int = DEFAULT_BURST
    per_minute: float = DEFAULT_PER_MINUTE

    @property
    def interval(self) -> timedelta:
        """The time one message's token takes to come back."""
        return timedelta(seconds=60.0 / self.per_minute)


class Pace(BaseModel):
    """What the profile keeps of a sender's pace."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    #: when the sender's whole burst is available again (at or before now: it is)
    full_at: AwareDatetime
    #: the notice of the current run of messages was sent
    warned: bool = False


@dataclass(frozen=True)
class Admission:
    """Whether a message is turned, whether it carries the run's one notice, and the pace to keep
    (None: unchanged, nothing to write)."""

    turned: bool
    notice: bool = False
    pace: Pace | None = None


def sent_at(timestamp: int, now: datetime) -> datetime:
    """When a message counts: its sending time (epoch seconds, Meta's `timestamp`) when that can be
    it, else `now`."""
    if timestamp <= 0:
        return now
    sent = datetime.fromtimestamp(timestamp, tz=now.tzinfo or UTC)
    return sent if now - LATEST_SENDING <= sent <= now else now


def admit(pace: Pace | None, now: datetime, limits: PaceLimits) -> Admission:
    """The admission of a message sent at `now`, given the sender's stored pace."""
    rested = pace is None or pace.full_at <= now
    full_at = now if pace is None or rested else pace.full_at
    warned = pace is not None and pace.warned and not rested
    if full_at - now <= limits.interval * (limits.burst - 1):
        return Admission(turned=True, pace=Pace(full_at=full_at + limits.interval, warned=warned))
    if warned:
        return Admission(turned=False)
    return Admission(turned=False, notice=True, pace=Pace(full_at=full_at, warned=True))


def slow_down(language: Language) -> str:
    """The one notice of a run of messages past the sender's pace."""
    if language == "he":
        return (
            "הגיעו ממך הרבה הודעות בבת אחת, רק רגע 🙏 על ההודעות שיגיעו בשניות הקרובות אני מדלג: "
            "מה שלא אענה עליו, אפשר לשלוח שוב בעוד דקה."
        )
    return (
        "You're sending a lot, give me a moment 🙏 I'm skipping the messages of the next few "
        "seconds: anything I don't answer, please send again in a minute."
    )
