"""New roster entries, told to the screens that care (e.g. to fill an untouched conflict form).

Its own small module so a conflict screen can listen without loading the roster screen.
"""
ADDED_LISTENERS = []


def when_added(listener):
    """Register listener(state, entry), called after a new entry is saved."""
    ADDED_LISTENERS.append(listener)
    return listener


def entry_added(state, entry: dict):
    for listener in ADDED_LISTENERS:
        listener(state, entry)
