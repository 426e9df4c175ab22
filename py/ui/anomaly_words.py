"""Placeholder: anomaly results in words."""


def sentence(record: dict) -> str:
    return f"{record.get('kind', 'conflict').title()} resolved."
