"""A loaded suite, as plain values (they cross process boundaries under `-j N`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class TurnExpect:
    says: tuple[str, ...] = ()  # the reply contains at least one (case-insensitive substring)
    not_says: tuple[str, ...] = ()  # the reply contains none
    needs: tuple[str, ...] = ()  # a multi-need turn: each reached by the end of the call


@dataclass(frozen=True)
class Turn:
    say: str
    line: int
    audio: Path | None = None  # a WAV of this turn, for --voice
    expect: TurnExpect = field(default_factory=TurnExpect)


@dataclass(frozen=True)
class CallExpect:
    reach: tuple[str, ...] = ()
    refunds: tuple[tuple[str, int], ...] = ()  # (charge id, cents) that must be paid, exactly these
    requests: tuple[str, ...] = ()  # durable request kinds filed for a person, exactly these
    tickets: tuple[str, ...] | None = None  # at least these ticket kinds; None = not checked
    profile: dict[str, dict[str, str | bool]] = field(default_factory=dict)  # customer -> field -> new value


@dataclass(frozen=True)
class Call:
    name: str
    line: int
    turns: tuple[Turn, ...]
    customer: str | None = None  # a known, verified caller; None = unknown caller
    klass: str | None = None  # the `class:` label, for per-class reporting
    expect: CallExpect = field(default_factory=CallExpect)
    expect_line: int | None = None

    @property
    def spoken(self) -> bool:
        """Every turn has an audio file (the loader allows all or none)."""
        return all(t.audio is not None for t in self.turns)


@dataclass(frozen=True)
class Suite:
    name: str
    path: Path
    calls: tuple[Call, ...]
    description: str = ""
    fixture: Path | None = None  # a SQLite file or an SQL script; None = the demo store
