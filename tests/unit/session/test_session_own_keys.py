"""This phone's own keys (session.on_device.own_keys): the backups record, read and written through
the Library (ui/shell/storage.py no longer touches its key), only when its text changed. The table
in progress and sealed secrets are tested with the screens that keep them (tests/unit/ui:
test_ui_table.py, test_ui_sealed.py)."""
from session import Library, MemoryStore
from session.on_device.backups import BACKUPS_KEY, backups_text, exported

from samples import AT, logged_party


class Counting(MemoryStore):
    """A store that counts what is written under each key."""

    def __init__(self, items=None):
        super().__init__(items)
        self.writes: dict[str, int] = {}

    def set(self, key, text):
        super().set(key, text)
        self.writes[key] = self.writes.get(key, 0) + 1


def test_the_backups_record_comes_back_and_is_written_only_when_it_changed():
    store = Counting()
    first = Library(store)
    assert first.load_backups() == {}
    backups = exported({}, logged_party(), AT)
    assert first.save_backups(backups) is True and store.get(BACKUPS_KEY) == backups_text(backups)
    assert first.save_backups(backups) is False and store.writes[BACKUPS_KEY] == 1
    again = Library(store)
    assert again.load_backups() == backups
    assert again.save_backups(backups) is False and store.writes[BACKUPS_KEY] == 1  # the same text as read


def test_an_unreadable_backups_record_reads_as_never_backed_up_and_is_replaced_at_the_next_backup():
    store = MemoryStore({BACKUPS_KEY: "{not json"})
    shelf = Library(store)
    assert shelf.load_backups() == {}
    assert store.get(BACKUPS_KEY) == "{not json"  # reading changes nothing
    backups = exported({}, logged_party(), AT)
    assert shelf.save_backups(backups) is True and store.get(BACKUPS_KEY) == backups_text(backups)
