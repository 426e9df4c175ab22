"""The one error the session package raises, a sentence for players, and the checks that raise it."""


class SessionError(ValueError):
    """Stored, shared or imported session data that cannot be used, and why."""


def checks(damaged: str):
    """`need` and `whole` for one kind of untrusted data, whose complaint when nothing more precise
    is said is `damaged`."""

    def need(condition: bool, message: str = damaged):
        if not condition:
            raise SessionError(message)

    def whole(value, low: int, high: int) -> int:
        need(isinstance(value, int) and not isinstance(value, bool) and low <= value <= high)
        return value

    return need, whole


class Overfull(SessionError):
    """A session past one of the limits its check holds it to (replica_check): `what` names it as
    something the session has ("counts from more than 64 phones"), so a merge that would make it
    says "the session would have …"."""

    def __init__(self, what: str):
        super().__init__(f"The session has {what}.")
        self.what = what


class Refused(SessionError):
    """A change made on this phone that the session can't take (a count or the clock is full):
    the tap changes nothing and says why."""
