"""The explorer's render policies, driven by a fake clock and a fake scheduler (no timing)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from toollens.jupyter.debounce import Coalescer, Debouncer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Scheduled:
    """Records scheduled callbacks; the test runs them when it chooses."""

    def __init__(self) -> None:
        self.pending: list[tuple[float, Callable[[], None]]] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> Callable[[], None]:
        entry = (delay, callback)
        self.pending.append(entry)
        return lambda: self.pending.remove(entry) if entry in self.pending else None

    def run(self) -> None:
        while self.pending:
            _delay, callback = self.pending.pop(0)
            callback()


class Editor:
    """Stands for the explorer: ``text`` is the source, each render records what it saw."""

    def __init__(self) -> None:
        self.text = ""
        self.shown: list[str] = []
        self.during: list[str] = []  # edits that arrive while a render runs

    gate: Coalescer | None = None

    def render(self) -> None:
        self.shown.append(self.text)
        while self.during and self.gate is not None:
            self.text = self.during.pop(0)
            self.gate.request(self.render)


def make(queued_within: float = 0.004) -> tuple[Coalescer, Editor, Clock, Scheduled]:
    clock, scheduled, editor = Clock(), Scheduled(), Editor()
    gate = Coalescer(scheduled, clock=clock, queued_within=queued_within, drain=0.004)
    editor.gate = gate
    return gate, editor, clock, scheduled


def edit(gate: Coalescer, editor: Editor, text: str) -> None:
    editor.text = text
    gate.request(editor.render)


def test_an_edit_on_an_idle_kernel_renders_at_once() -> None:
    gate, editor, clock, scheduled = make()
    for i, text in enumerate(["a", "ab", "abc"]):
        clock.now += 0.2 * (i + 1)  # a human's pace: each edit finds the kernel idle
        edit(gate, editor, text)
        assert editor.shown[-1] == text
        assert not scheduled.pending
        assert not gate.pending
    assert editor.shown == ["a", "ab", "abc"]


def test_edits_queued_behind_a_render_coalesce_into_one_that_shows_the_last() -> None:
    gate, editor, clock, scheduled = make()
    edit(gate, editor, "a")  # renders at once; it ends at clock.now
    for text in ("ab", "abc", "abcd", "abcde"):  # waited behind it: within queued_within
        clock.now += 0.0005
        edit(gate, editor, text)
    assert editor.shown == ["a"]
    assert len(scheduled.pending) == 1  # one render owed, not four
    assert gate.pending
    scheduled.run()
    assert editor.shown == ["a", "abcde"]
    assert not gate.pending


def test_an_edit_during_a_render_runs_one_more_render_after_it() -> None:
    gate, editor, _clock, scheduled = make()
    editor.during = ["ab", "abc"]  # typed while the first render runs (another thread)
    edit(gate, editor, "a")
    assert editor.shown == ["a"]
    assert gate.pending
    scheduled.run()
    assert editor.shown == ["a", "abc"]  # the newest text, once
    assert not gate.pending


def test_cancel_forgets_the_owed_render_and_a_render_resets_nothing_else() -> None:
    gate, editor, clock, scheduled = make()
    edit(gate, editor, "a")
    clock.now += 0.001
    edit(gate, editor, "ab")
    assert gate.pending
    gate.cancel()  # the explorer's own render (a toolbar change) showed "ab" meanwhile
    assert not gate.pending
    assert not scheduled.pending
    clock.now += 1.0
    edit(gate, editor, "abc")
    assert editor.shown == ["a", "abc"]


@pytest.mark.parametrize(
    ("gaps", "renders"),
    [
        ([1.0] * 5, 5),  # slow typing: every edit at once
        ([0.0001] * 5, 2),  # a burst: the first at once, the rest in one
        ([1.0, 0.0001, 0.0001, 1.0, 0.0001], 4),  # two bursts
    ],
    ids=["slow", "burst", "two-bursts"],
)
def test_a_burst_of_edits_always_ends_with_the_last_shown(gaps: list[float], renders: int) -> None:
    gate, editor, clock, scheduled = make()
    for i, gap in enumerate(gaps):
        if gap >= 1.0:
            scheduled.run()  # the kernel goes idle: what was owed runs, then time passes
        clock.now += gap
        edit(gate, editor, "x" * (i + 1))
    scheduled.run()
    assert editor.shown[-1] == "x" * len(gaps)
    assert len(editor.shown) == renders


def test_debouncer_waits_the_delay_and_zero_runs_at_once() -> None:
    scheduled = Scheduled()
    shown: list[int] = []
    waiting = Debouncer(0.1, scheduled)
    for n in range(3):
        waiting.request(lambda n=n: shown.append(n))  # type: ignore[misc]
    assert shown == []
    assert [delay for delay, _ in scheduled.pending] == [0.1]
    scheduled.run()
    assert shown == [2]
    Debouncer(0, scheduled).request(lambda: shown.append(9))
    assert shown == [2, 9]
