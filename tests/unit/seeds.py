"""Reading the seed rule texts in tests/seeds/: whole text, sentences, markdown tables."""

import re
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
TENSION_ENGINE = "000_ab0945d9c03564cf.txt"
ANOMALY = "001_7e0e6e0691c794f8.txt"
MANNER_CARDS = "003_147bba370096905f.txt"


def seed_text(name: str) -> str:
    return (SEEDS / name).read_text(encoding="utf-8")


def sentences(name: str) -> list[str]:
    """The seed's sentences in order; headings (lines without end punctuation) and table rows are skipped."""
    found = []
    for line in seed_text(name).splitlines():
        line = line.strip()
        if not line or line.startswith("|") or not line.endswith((".", "!", "?", ":")):
            continue
        pieces = re.split(r"(?<=[.!?])\s+", line)
        merged = []
        for piece in pieces:
            # "5." at the start of a step belongs to the sentence after it.
            if merged and re.fullmatch(r"\d+\.", merged[-1]):
                merged[-1] += " " + piece
            else:
                merged.append(piece)
        found.extend(merged)
    return found


def markdown_table(name: str, title: str) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The table printed after the line `title`: (column names, {row name: {column: cell}})."""
    lines = seed_text(name).splitlines()
    start = lines.index(title) + 1
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    header, separator, *body = rows
    assert all(set(cell) <= set("-:") for cell in separator)
    columns = header[1:]
    return columns, {row[0]: dict(zip(columns, row[1:])) for row in body}
