"""One sentence for any conflict record, whatever its system: for the log,
announcements and shared roll links. Each system's words module writes its own."""
from ui import anomaly_words, manners_words, tension_words

SENTENCES = {
    "tension": tension_words.sentence,
    "anomaly": anomaly_words.sentence,
    "manners": manners_words.sentence,
}


def sentence(record: dict) -> str:
    return SENTENCES[record["system"]](record)
