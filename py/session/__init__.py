"""Sessions: what a table keeps between conflicts, pure Python like `rules`.

A session is one JSON object (model.py): system, roster, Tension, Tension
Table and the log of conflict records. Untrusted session data (storage, share
links, imported files) goes through `check_session`; errors are SessionError.
"""
from .errors import SessionError
from .log import log_conflict, undo_last
from .model import (MAX_NAME, SCHEMA_VERSION, SYSTEMS, check_roster_entry, check_session,
                    new_id, new_session)

__all__ = ["SessionError", "SCHEMA_VERSION", "SYSTEMS", "MAX_NAME", "new_session", "new_id",
           "check_session", "check_roster_entry", "log_conflict", "undo_last"]
