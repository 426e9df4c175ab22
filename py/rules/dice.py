"""Dice: one injectable random source, rolling, and checking faces typed in by hand.

The default source draws from `secrets` (the browser's crypto.getRandomValues
under Pyodide); `randbelow` rejects out-of-range draws, so there is no modulo bias.
`secrets` and `random` are imported on first use, to keep `import rules` light.
"""

from .errors import DiceError
from .words import capitalize, plural, possessive, show

__all__ = ["RandomSource", "SecretsSource", "SeededSource", "FixedDice", "NoDice", "DEFAULT_SOURCE",
           "is_whole_number", "roll", "check_faces"]


class RandomSource:
    """What a random source is: any object with this `randint` method (no need to subclass)."""

    def randint(self, low: int, high: int) -> int:
        """A uniformly random whole number from low to high, both included."""
        raise NotImplementedError


class SecretsSource(RandomSource):
    """The default: cryptographic randomness, unbiased."""

    def randint(self, low: int, high: int) -> int:
        import secrets
        return low + secrets.randbelow(high - low + 1)


class SeededSource(RandomSource):
    """Reproducible pseudo-random dice (tests, benchmarks, demos). Never for real play."""

    def __init__(self, seed: int | str | None = 0):
        import random
        self._random = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        return self._random.randint(low, high)


class FixedDice(RandomSource):
    """Scripted faces, handed out in order: for tests and for replaying a roll."""

    def __init__(self, faces):
        self._faces = list(faces)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next

    def randint(self, low: int, high: int) -> int:
        if self._next >= len(self._faces):
            raise DiceError("The scripted dice ran out.")
        face = self._faces[self._next]
        self._next += 1
        if not is_whole_number(face) or not low <= face <= high:
            raise DiceError(f"A scripted die showed {face!r}, outside {low} to {high}.")
        return face


class NoDice(RandomSource):
    """A source that refuses to roll: re-checking a record must use its own dice."""

    def randint(self, low: int, high: int) -> int:
        raise DiceError("This record is missing some dice, so it can't be re-checked.")


DEFAULT_SOURCE = SecretsSource()
MAX_DICE = 1000


def is_whole_number(value) -> bool:
    """True for int but not bool (JSON true/false must never pass as 1/0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def roll(count: int, sides: int, source: RandomSource | None = None) -> list[int]:
    """Roll `count` dice with `sides` faces each."""
    if not is_whole_number(count) or not is_whole_number(sides) or not 0 <= count <= MAX_DICE or not 1 <= sides <= 1000:
        raise DiceError(f"Roll from 0 to {MAX_DICE} dice with 1 to 1000 sides each, as whole numbers.")
    source = DEFAULT_SOURCE if source is None else source
    faces = [source.randint(1, sides) for _ in range(count)]
    for face in faces:
        if not is_whole_number(face) or not 1 <= face <= sides:
            raise DiceError(f"The random source gave {face!r} for a d{sides}.")
    return faces


def check_faces(faces, count: int, sides: int, who: str = "You", where: str | None = None) -> list[int]:
    """Check dice typed in by hand: a list of `count` whole numbers from 1 to `sides`."""
    if not is_whole_number(count) or not is_whole_number(sides) or count < 0 or sides < 1:
        raise DiceError("Say how many dice, and how many sides each, as whole numbers.", where)
    if not isinstance(faces, list):
        raise DiceError(f"{who}: dice must be a list of faces, like [6, 3, 1].", where)
    if len(faces) != count:
        raise DiceError(
            f"{capitalize(possessive(who))} roll has {count} {plural(count, 'die', 'dice')}, "
            f"but {len(faces)} {plural(len(faces), 'face was', 'faces were')} given.",
            where,
        )
    for face in faces:
        if not is_whole_number(face):
            raise DiceError(f"A d{sides} shows a whole number from 1 to {sides}, not {show(face)}.", where)
        if not 1 <= face <= sides:
            raise DiceError(f"A d{sides} shows 1 to {sides}, not {face}.", where)
    return list(faces)
