"""A log store in memory that counts the records it reads (session.logbook's interface), for tests
of what reading the log costs and for bench/bench_catchup.py.

Each session's keys are kept sorted, so a page costs what IndexedDB's cursor costs: the records it
returns. `reads` counts every record a call gives back (a page's, `every`'s, `index`'s), every key
`keys` gives back (IndexedDB reads keys alone there, far cheaper, but still one a key), and every
id looked up (`kinds`, `texts`: one index get each, found or not); `count` reads no record (IndexedDB
counts keys). Self-contained: the benchmark runs it against older versions of the app too.
"""
from __future__ import annotations

from bisect import bisect_left, insort
from collections import Counter


class CountingLog:
    durable = True

    def __init__(self):
        self.records: dict[tuple, dict] = {}  # (s, c, d, i) -> record
        self.keys_of: dict[str, list[tuple]] = {}  # session -> its keys (c, d, i), sorted
        self.by_id: dict[tuple[str, str], tuple] = {}  # (session, id) -> key
        self.reads = 0
        self.read_by: Counter = Counter()  # what `reads` counts, by operation
        self.calls: Counter = Counter()  # how many times each operation was called

    def tally(self, operation: str, read: int):
        self.reads += read
        self.read_by[operation] += read
        self.calls[operation] += 1

    async def append(self, records: list[dict]):
        for item in records:
            key = (item["c"], item["d"], item["i"])
            if (item["s"], *key) not in self.records:
                insort(self.keys_of.setdefault(item["s"], []), key)
            self.records[(item["s"], *key)] = dict(item)
            self.by_id[(item["s"], item["i"])] = key

    def texts_of(self, operation: str, session_id: str, keys) -> list[str]:
        found = [self.records[(session_id, *key)]["t"] for key in keys]
        self.tally(operation, len(found))
        return found

    async def page(self, session_id: str, before, limit: int) -> list[str]:
        keys = self.keys_of.get(session_id, [])
        end = bisect_left(keys, tuple(before)) if before is not None else len(keys)
        return self.texts_of("page", session_id, reversed(keys[max(0, end - limit):end] if limit > 0 else []))

    async def every(self, session_id: str) -> list[str]:
        return self.texts_of("every", session_id, self.keys_of.get(session_id, []))

    def looked_up(self, operation: str, session_id: str, ids, field: str) -> dict[str, str]:
        ids = list(ids)
        self.tally(operation, len(ids))
        found = {entry_id: self.by_id.get((session_id, entry_id)) for entry_id in ids}
        return {entry_id: self.records[(session_id, *key)][field] for entry_id, key in found.items() if key}

    async def kinds(self, session_id: str, ids) -> dict[str, str]:
        return self.looked_up("kinds", session_id, ids, "k")

    async def texts(self, session_id: str, ids) -> dict[str, str]:
        return self.looked_up("texts", session_id, ids, "t")

    async def count(self, session_id: str) -> int:
        return len(self.keys_of.get(session_id, []))

    async def remove(self, session_id: str, keep: int = 0):
        keys = self.keys_of.get(session_id, [])
        cut = max(0, len(keys) - keep)  # keep may exceed what is there: then none goes
        gone, self.keys_of[session_id] = keys[:cut], keys[cut:]
        for key in gone:
            del self.records[(session_id, *key)]
            del self.by_id[(session_id, key[2])]

    async def index(self, session_id: str) -> list[list[str]]:
        keys = self.keys_of.get(session_id, [])
        self.tally("index", len(keys))
        return [[key[2], self.records[(session_id, *key)]["k"]] for key in keys]

    async def keys(self, session_id: str) -> list[list]:
        keys = self.keys_of.get(session_id, [])
        self.tally("keys", len(keys))
        return [list(key) for key in keys]
