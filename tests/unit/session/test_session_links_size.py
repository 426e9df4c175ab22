"""session.links.size: whether a session link this phone made is one that phones of this version open
(issue 30). It must agree with what reading the link says, whatever the limits are (another change may
move them): the limits are lowered here with monkeypatch, never copied."""
import pytest

from session.links import text as link_text
from session.links import v2 as link_v2
from session.links.size import too_large
from session.links.text import TOO_LARGE, LinkError
from session.replica import Replica

from samples import party_of_five
from test_session_link_size import full_table, unpacked_size


def refused_for_size(fragment: str) -> bool:
    """What the receiving phone says: True when reading refuses the link for its size."""
    try:
        link_v2.read(fragment)
    except LinkError as error:
        return str(error).startswith(TOO_LARGE.split("{")[0]) and "this version of Tableside opens" in str(error)
    return False


def party_link() -> str:
    return link_v2.session_link(Replica.from_session(party_of_five()))


def test_a_link_within_the_limits_is_not_too_large():
    fragment = party_link()
    assert not too_large(fragment) and not refused_for_size(fragment)


@pytest.mark.parametrize("limit", ["MAX_FRAGMENT", "MAX_DECODED"])
def test_a_link_past_either_limit_is_too_large_as_reading_says(monkeypatch, limit):
    """(A live table checks the whole fragment's length, reading a link only what follows "S2.": the
    check takes the stricter, so what it passes, both carry.)"""
    fragment = party_link()
    size = len(fragment) if limit == "MAX_FRAGMENT" else unpacked_size(fragment)
    monkeypatch.setattr(link_text, limit, size)
    assert not too_large(fragment) and not refused_for_size(fragment)  # just at the limit: opened
    monkeypatch.setattr(link_text, limit, size - (len("S2.") + 1 if limit == "MAX_FRAGMENT" else 1))
    assert too_large(fragment) and refused_for_size(fragment)


def test_a_long_campaigns_session_past_the_limit_is_said_too_large():
    """The measured case that unpacks past MAX_DECODED at the real limits (test_session_link_size)."""
    replica = full_table(32, [999_999, 999_998], vouched=False)
    fragment = link_v2.session_link(replica)
    assert (unpacked_size(fragment) > link_text.MAX_DECODED) == too_large(fragment) == refused_for_size(fragment)


def test_a_link_damaged_otherwise_is_not_said_too_large():
    assert not too_large("S2.AAAA1")  # not base32: reading says it is damaged
    assert not too_large("S2." + "A" * 16)  # not zlib
