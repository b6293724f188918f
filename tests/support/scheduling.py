"""How pytest-xdist hands this suite's tests to its workers (``-n``): modules, and chunks.

A module of up to ``WHOLE`` tests goes to one worker whole, so a module-scoped fixture (a
browser test's server, a shell, a built site) is set up once; a larger module goes in
chunks of ``CHUNK`` consecutive tests. The units known to be long go first (``long``: the
browser tests, the benchmark smokes), then the others, largest first, so the last ones,
the smallest, even out the workers' ends.

Why not xdist's own schedulers: ``load`` spreads a module over both workers (each sets up
its fixtures); ``loadgroup``'s groups travel as a suffix written into each test's id,
which pytest 9.2 no longer lets a plugin change (pytest-xdist issue 1386: the groups are
silently dropped); and with a scope a test, xdist's scope scheduler does work that grows
with the square of the tests (it recounts every scope a worker was ever given after each
test, and searches the worker's whole collection for each index: about 9 s of the
controller's CPU on ~8,000 tests, taken from the cores the workers run on).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from xdist.scheduler import LoadScopeScheduling

# Every module with a module-scoped fixture has fewer tests (conftest checks it at
# collection); with 10 a chunk, the controller sends a message per ten tests.
WHOLE = 40
CHUNK = 10


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def units(collection: Sequence[str]) -> dict[str, str]:
    """Each test's unit: its module, or ``module::chunk-N`` when the module is large."""
    sizes = Counter(map(module_of, collection))
    seen: Counter[str] = Counter()
    unit_of: dict[str, str] = {}
    for nodeid in collection:
        module = module_of(nodeid)
        position, seen[module] = seen[module], seen[module] + 1
        large = sizes[module] > WHOLE
        unit_of[nodeid] = f"{module}::chunk-{position // CHUNK}" if large else module
    return unit_of


class ModuleChunkScheduling(LoadScopeScheduling):  # type: ignore[misc]
    def __init__(
        self, config: Any, log: Any = None, long: Callable[[str], bool] = lambda nodeid: False
    ) -> None:
        super().__init__(config, log)
        self._long = long
        self._unit_of: dict[str, str] = {}
        self._index_of: dict[Any, dict[str, int]] = {}

    def add_node_collection(self, node: Any, collection: Sequence[str]) -> None:
        super().add_node_collection(node, collection)
        if node in self.registered_collections:  # the base refuses a collection that differs
            self._index_of[node] = {nodeid: i for i, nodeid in enumerate(collection)}
            if not self._unit_of:
                self._unit_of = units(collection)

    def schedule(self) -> None:
        """The base class's, with the queue in this order: long units first, then by size."""
        assert self.collection_is_completed
        if self.collection is not None:  # a node added later: the queue is built
            for node in self.nodes:
                self._reschedule(node)
            return
        if not self._check_nodes_have_same_collection():
            self.log("**Different tests collected, aborting run**")
            return
        self.collection = list(next(iter(self.registered_collections.values())))
        if not self.collection:
            return
        queue: dict[str, dict[str, bool]] = {}
        for nodeid in self.collection:
            queue.setdefault(self._split_scope(nodeid), {})[nodeid] = False

        def order(unit: str) -> tuple[bool, int]:
            return (not any(map(self._long, queue[unit])), -len(queue[unit]))

        for unit in sorted(queue, key=order):
            self.workqueue[unit] = queue[unit]
        for node in self.nodes[len(self.workqueue) :]:  # more workers than units
            self.assigned_work.pop(node)
            node.shutdown()
        for node in self.nodes:
            self._assign_work_unit(node)
        for node in self.nodes:  # each starts with two units where there are enough
            self._reschedule(node)

    def _split_scope(self, nodeid: str) -> str:
        return self._unit_of[nodeid]

    def _assign_work_unit(self, node: Any) -> None:
        scope, work_unit = self.workqueue.popitem(last=False)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        index = self._index_of[node]
        node.send_runtest_some([index[n] for n, done in work_unit.items() if not done])

    def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
        nodeid = self.registered_collections[node][item_index]
        workload = self.assigned_work[node]
        scope = self._split_scope(nodeid)
        workload[scope][nodeid] = True
        if all(workload[scope].values()):
            del workload[scope]  # a worker's workload holds what is pending, nothing more
        self._reschedule(node)
