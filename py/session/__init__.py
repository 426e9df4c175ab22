"""Sessions: what a table keeps between conflicts, pure Python like `rules`. One line a part:

model.py          a session as one JSON object: system, roster, Tension, Tension Table, log
log.py            logging a conflict, setting dice aside, undo: the deltas each entry changed
replica.py        the session each phone keeps, merging with other phones'; the dict derives from it
replica_check.py  untrusted replica data (storage, links, files) into a Replica, or SessionError
merging.py        every merge checked as the next start checks it, or refused with what it breaks
inert.py          what nobody can act on (junk reveals, marks of no entry, made-up counts), left out where it arrives
history.py        an entry id means one content: entries from outside verified, rewrites refused
differences.py    what opening a link would change, field by field, before it is applied
logbook.py        a session's log on this device, entry by entry, in the log store
untrusted.py      the one parser of JSON from outside: nesting capped before json.loads
errors.py         SessionError, the one error, with a sentence for players
sealed/           sealed cards across phones: commit and reveal, and the verdict on a logged result
on_device/        how sessions are saved on a device: heads, log outbox, own keys, backups (Library)
links/            share links (text, v1, v2: LinkError) and export files (ImportFileError)
live/             the live table: offers and answers as QR codes, its messages, catching up

`import session` loads what start-up needs (the model, the replica, on_device); links and export
files load on first use (LATER, below), live/ when the page needs it (a live
table, a code scanned). Each folder's __init__ says more.
"""
import importlib

from .errors import SessionError
from .log import log_conflict, set_aside, undo_last
from .model import (MAX_NAME, SCHEMA_VERSION, SYSTEMS, blank_sheet, check_roster_entry, check_session,
                    new_id, new_session)
from .logbook import MemoryLog
from .on_device import Library, MemoryStore, StorageError, Unreadable

__all__ = ["SessionError", "SCHEMA_VERSION", "SYSTEMS", "MAX_NAME", "new_session", "new_id",
           "check_session", "check_roster_entry", "blank_sheet", "log_conflict", "set_aside", "undo_last",
           "LinkError", "encode_session", "encode_roll", "decode", "decode_session", "decode_roll",
           "looks_like_link", "share_url", "Library", "MemoryStore", "MemoryLog", "StorageError", "Unreadable",
           "ImportFileError", "export_text", "file_name", "read_export", "MAX_FILE"]

# Share links and export files are needed only once one is made or opened: their modules
# load on first use, keeping them out of the page's start-up.
LATER = {name: "links.text" for name in ("LinkError", "looks_like_link", "share_url")}
LATER.update({name: "links.v1" for name in ("encode_session", "encode_roll", "decode", "decode_session", "decode_roll")})
LATER.update({name: "links.files" for name in ("ImportFileError", "export_text", "file_name", "read_export", "MAX_FILE")})


def __getattr__(name):
    if name in LATER:
        return getattr(importlib.import_module(f"{__name__}.{LATER[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
