"""Sessions: what a table keeps between conflicts, pure Python like `rules`.

A session is one JSON object (model.py): system, roster, Tension, Tension
Table and the log of conflict records; on each phone it is kept as a replica
that merges with other phones' (replica.py), from which that object is derived.
Untrusted session data (storage, share links, imported files) is parsed by
untrusted.py (nesting capped before json.loads) and checked by `check_session`
and replica_check.py; errors are SessionError.
on_device/ is how sessions are saved on a device (a small head per session; one module per
concern, the Library in front), logbook.py their logs (entry by entry, in the log store);
link_text.py what every share link is (LinkError), link_v1.py and link_v2.py its two
versions; files.py the export files (ImportFileError); live_signal.py a live table's offers and
answers as QR codes (LiveCodeError), live_protocol.py the messages its phones exchange
(LiveMessageError), live_catchup.py how two phones that meet again exchange what each lacks.
"""
import importlib

from .errors import SessionError
from .log import log_conflict, set_aside, undo_last
from .model import (MAX_NAME, SCHEMA_VERSION, SYSTEMS, check_roster_entry, check_session,
                    new_id, new_session)
from .logbook import MemoryLog
from .on_device import Library, MemoryStore, StorageError, Unreadable

__all__ = ["SessionError", "SCHEMA_VERSION", "SYSTEMS", "MAX_NAME", "new_session", "new_id",
           "check_session", "check_roster_entry", "log_conflict", "set_aside", "undo_last",
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
