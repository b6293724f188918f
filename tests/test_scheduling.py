"""The suite's xdist scheduler, driven through the calls xdist's controller makes."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from support.scheduling import CHUNK, WHOLE, ModuleChunkScheduling, module_of, units

SMALL = [f"tests/a/test_small.py::test_{i}" for i in range(WHOLE)]
LARGE = [f"tests/b/test_large.py::test_case[{i}]" for i in range(WHOLE + 4)]
COLLECTION = [*LARGE[:5], *SMALL, *LARGE[5:], "tests/test_one.py::test_alone"]


class Node:
    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.queue: deque[int] = deque()
        self.ran: list[str] = []
        self.messages = 0

    def send_runtest_some(self, indices: list[int]) -> None:
        self.queue.extend(indices)
        self.messages += 1

    def shutdown(self) -> None:
        self.shutting_down = True


def scheduler(
    nodes: list[Node], long: Callable[[str], bool] | None = None
) -> ModuleChunkScheduling:
    config: Any = SimpleNamespace(getvalue=lambda name: [f"{len(nodes)}*popen"])
    sched = ModuleChunkScheduling(config, long=long or (lambda nodeid: False))
    for node in nodes:
        sched.add_node(node)
    for node in nodes:
        sched.add_node_collection(node, COLLECTION)
    sched.schedule()
    return sched


def run(sched: ModuleChunkScheduling, nodes: list[Node]) -> None:
    while any(node.queue for node in nodes):
        for node in nodes:
            if node.queue:
                index = node.queue.popleft()
                node.ran.append(COLLECTION[index])
                sched.mark_test_complete(node, index)


def test_a_module_up_to_whole_is_one_unit_a_larger_one_goes_in_chunks() -> None:
    unit_of = units(COLLECTION)
    assert {unit_of[n] for n in SMALL} == {"tests/a/test_small.py"}
    chunks = [unit_of[n] for n in LARGE]
    assert len(set(chunks)) == -(-len(LARGE) // CHUNK)
    assert max(chunks.count(c) for c in chunks) == CHUNK
    assert unit_of["tests/test_one.py::test_alone"] == "tests/test_one.py"


def test_every_test_runs_once_and_a_small_module_on_one_worker_in_order() -> None:
    nodes = [Node("gw0"), Node("gw1")]
    sched = scheduler(nodes)
    run(sched, nodes)
    assert sorted(n for node in nodes for n in node.ran) == sorted(COLLECTION)
    (holder,) = [node for node in nodes if SMALL[0] in node.ran]
    assert [n for n in holder.ran if module_of(n) == module_of(SMALL[0])] == SMALL
    assert sched.tests_finished
    assert not sched.has_pending
    # a message a unit, not one a test
    assert sum(node.messages for node in nodes) == len(set(units(COLLECTION).values()))


def test_a_crashed_worker_s_pending_tests_go_to_another() -> None:
    nodes = [Node("gw0"), Node("gw1")]
    sched = scheduler(nodes)
    crashed, survivor = nodes
    first = crashed.queue.popleft()
    crashed.ran.append(COLLECTION[first])
    sched.mark_test_complete(crashed, first)
    pending = [COLLECTION[i] for i in crashed.queue]
    assert sched.remove_node(crashed) == pending[0]  # what it was running when it died
    run(sched, [survivor])
    assert set(pending) <= set(survivor.ran)
    assert sorted(crashed.ran + survivor.ran) == sorted(COLLECTION)


def test_units_known_to_be_long_go_first_then_the_largest() -> None:
    nodes = [Node("gw0")]
    run(scheduler(nodes, long=lambda nodeid: nodeid.startswith("tests/test_one")), nodes)
    assert nodes[0].ran[0] == "tests/test_one.py::test_alone"
    assert nodes[0].ran[1 : 1 + WHOLE] == SMALL
