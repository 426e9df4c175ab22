"""One sentence for any conflict record, whatever its system: for the log,
announcements and shared roll links. Each system's words module writes its own."""
from ui.systems.anomaly import words as anomaly_words
from ui.systems.manners import words as manners_words
from ui.systems.tension import words as tension_words

SENTENCES = {
    "tension": tension_words.sentence,
    "anomaly": anomaly_words.sentence,
    "manners": manners_words.sentence,
}


def sentence(record: dict) -> str:
    return SENTENCES[record["system"]](record)


SET_ASIDE = "Dice rolled and set aside, not resolved."


def entry_sentence(entry: dict) -> str:
    """One sentence for a log entry: a roll set aside (no result) read as one, a conflict by its record."""
    if entry.get("kind") == "set-aside":
        return SET_ASIDE
    return safe_sentence(entry.get("record"))


def safe_sentence(record) -> str:
    """One sentence for a record; one too broken to describe says so (stored data is not trusted)."""
    try:
        return sentence(record)
    except Exception:
        return "A conflict whose record could not be read."
