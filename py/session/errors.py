"""The one error the session package raises: a sentence for players."""


class SessionError(ValueError):
    """Stored, shared or imported session data that cannot be used, and why."""
