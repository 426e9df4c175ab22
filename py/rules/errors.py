"""The one exception family the rules raise.

The UI catches `RuleError` and shows its message as is: every message is a
short sentence for players. `where` names the record field at fault, if any.
"""


class RuleError(Exception):
    """A record or a choice breaks a rule; the message says which, in plain words."""

    def __init__(self, message: str, where: str | None = None):
        super().__init__(message)
        self.message = message
        self.where = where


class RecordError(RuleError):
    """The record itself is malformed: a missing field, a wrong type, a bad version."""


class DiceError(RuleError):
    """Dice that can't be: a 7 on a d6, too few or too many faces typed in."""


class SpendingError(RuleError):
    """Spending AP or Tension that the rules don't allow, or keeping the wrong dice."""
