"""What the Log screen keeps between taps (in state.view): how many entries it shows
("log_shown"), whose rolls ("log_who"), how far back a search still reads ("log_search"),
and the archive question ("archive")."""
from ui.core.library import PAGE  # noqa: F401  (entries shown at first, and added by "Show older entries")

SEARCH = 500  # entries read at most per tap while looking for one character's rolls
KEEP = (100, 500, 1_000, 5_000)  # how many of the newest entries archiving may keep on this phone
ARCHIVE_KEEP = 500
