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
