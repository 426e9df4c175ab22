"""The app's readings of the rules, shown as short notes next to a result.

Results list the ids of the readings they relied on (`result["notes"]`); the
UI and the log look the words up here, so records stay short.
"""

READINGS = {
    # Tension Engine
    "tension-tie": "A tie is not a success, and Tension stays as it is (the rules are silent on ties).",
    "tension-opposed-tie": "A tie: the initiator does not succeed and deals no damage (the rules are silent on ties).",
    "tension-boost": "Boost: the GM pays 1 Tension and adds the Tension left after paying.",
    "tension-retry": "Trying again costs 1 Tension first; the GM then rolls the raised Tension.",
    "tension-ones": "Each 1 in a character's dice adds 1 Tension after the conflict.",
    "tension-explosion": "Tension exploded: roll a d6 on the Tension Table for each multiple of 10 reached.",
    "tension-given-total": "A side given only as a total spends nothing.",
    "tension-defender-spends": "The defender spends like any side: a character spends AP, an adversary spends Tension.",
    "tension-one-defender-roll": "The defender rolled once; that total answers every initiator.",
    "tension-few-dice": "A side with fewer than two dice keeps what it rolled.",
    # Anomaly
    "anomaly-tie": "A total equal to the difficulty is not a success: it must be higher.",
    "anomaly-left-out": "Within one kind only the largest modifier applies; the others are left out.",
    "anomaly-stacks": "Modifiers marked \"stacks\" all add, together with the largest other one of their kind.",
    "anomaly-cancel": "Good and bad dice cancel one for one.",
    "anomaly-given-total": "The defender's total was given, not rolled here.",
    # Manner Cards
    "manners-test-partial": "On the Test table, \"Partial\" means the Complication adds 2 (read like the Confrontation table).",
    "manners-other-partial": "The other side won with a Partial cell, so it only partly gets its way.",
    "manners-descriptors": "Tie broken by descriptors: the side with more applicable Traits and Specialities wins it.",
    "manners-compromise": "An unbroken tie is a compromise: each side gets a partial success.",
}
