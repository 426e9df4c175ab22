"""New roster entries, and who holds this phone, told to the screens that care (e.g. to fill an
untouched conflict form, or leave the GM's choices to the GM's phone).

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


ROLE_LISTENERS = []


def when_role_changed(listener):
    """Register listener(state), called after this phone is said to be the GM's or a player's."""
    ROLE_LISTENERS.append(listener)
    return listener


def role_changed(state):
    for listener in ROLE_LISTENERS:
        listener(state)
