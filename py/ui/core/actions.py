"""The table's verbs: every `data-action` in the markup names a function here.

Screens register handlers with `@action("roll-player")`; a handler receives the
AppState and the event's `Input` (the element's data-* fields and value) and
changes the state. The DOM layer (app.py) renders afterwards. Handlers never
touch the DOM, so they are tested under CPython with plain dicts.
"""
from __future__ import annotations

from dataclasses import dataclass, field

HANDLERS: dict = {}


@dataclass
class Input:
    data: dict = field(default_factory=dict)  # the element's data-* attributes
    value: str | None = None  # the element's value, for fields
    checked: bool | None = None  # for checkboxes

    def text(self, key: str, default: str = "") -> str:
        return self.data.get(key, default)

    def number(self, key: str | None = None, default: int | None = None) -> int | None:
        """An integer from data-`key` (or the value); `default` when missing or not a number."""
        raw = self.value if key is None else self.data.get(key)
        try:
            return int(str(raw).strip())
        except (TypeError, ValueError):
            return default


def action(name: str):
    def register(handler):
        if name in HANDLERS:
            raise ValueError(f"two handlers for action {name!r}")
        HANDLERS[name] = handler
        return handler

    return register


def dispatch(state, name: str, event_input: Input) -> bool:
    """Run the handler for `name`; False when no handler has that name."""
    handler = HANDLERS.get(name)
    if handler is None:
        return False
    handler(state, event_input)
    return True
