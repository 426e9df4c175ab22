"""Share links: round trips over random sessions, and every class of bad link fuzzed.
Decoding anything raises LinkError or returns a clean session: nothing else escapes."""
import base64
import json
import tracemalloc
import zlib
from pathlib import Path

import pytest
import segno
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from session import check_session, log_conflict, new_session
from session import LinkError
from session.links import text as link_text
from session.links import v1 as link
from session.links.text import looks_like_link
from session.links.v1 import decode, decode_roll, decode_session, encode_roll, encode_session
from samples import json_values, normalized, party_of_five, random_sessions

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

def packed(payload) -> str:
    """Data as a link carries it, for payloads the encoder would never write."""
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


def decodes_cleanly_or_refuses(fragment):
    """The property every fuzz test checks: LinkError, or a session that is already clean."""
    try:
        kind, value = decode(fragment)
    except LinkError as error:
        assert str(error) and "Traceback" not in str(error)
        return None
    if kind == "session":
        assert check_session(value, keep_log=False) == value
    else:
        assert isinstance(value["record"], dict)
    return value


# --- Round trips --------------------------------------------------------------------------------------

@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(random_sessions())
def test_session_link_round_trips_every_session(session):
    fragment = encode_session(session)
    assert fragment.startswith("s1.") and all(c.isalnum() or c in "._-" for c in fragment)
    assert decode_session(fragment) == {**session, "log": []}
    assert decode_session("#" + fragment) == {**session, "log": []}


def test_the_log_stays_out_of_a_session_link():
    session = party_of_five()
    logged = log_conflict(session, rules.resolve(
        {"v": 1, "system": "tension", "kind": "environment", "tension": 5,
         "gm": {"name": "The GM", "total": 9}, "player": {"name": "Ash", "pool": 4, "dice": [6, 5, 2, 1]}}),
        at="2025-06-01T20:14:05+02:00", by="Ash")
    assert encode_session(logged) != encode_session(session)  # Tension changed
    assert decode_session(encode_session(logged))["log"] == []


@settings(deadline=None, max_examples=100)
@given(st.text(st.characters(codec="utf-8"), max_size=40), st.text(st.characters(codec="utf-8"), max_size=60))
def test_roll_link_round_trips_a_logged_record(at, by):
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 9,
                            "gm": {"name": "The GM", "dice": [6, 4, 4, 2, 1, 1, 1, 1, 1]},
                            "player": {"name": "Ash", "pool": 5, "dice": [3, 2, 1, 1, 1]}})
    roll = decode_roll(encode_roll(record, at=at, by=by, session_name="Friday"))
    assert roll == {"record": record, "at": normalized(at), "by": normalized(by), "session": "Friday"}
    assert rules.verify(roll["record"]) == []


def test_a_session_link_is_not_a_roll_link_and_the_reverse():
    fragment = encode_session(new_session())
    with pytest.raises(LinkError, match="not to one roll"):
        decode_roll(fragment)
    record = rules.resolve({"v": 1, "system": "manners", "kind": "test", "difficulty": 3, "complication": "Time",
                            "player": {"name": "Wren", "manner": "Force", "manner_rating": 3, "skill": "Climb",
                                       "skill_rating": 2}})
    with pytest.raises(LinkError, match="not to a session"):
        decode_session(encode_roll(record))


def test_only_link_fragments_look_like_links():
    assert looks_like_link("s1.abc") and looks_like_link("r1.") and looks_like_link("s9.x")
    for other in ("", "app", "s", "s1", "x1.abc", "session", "#s1.abc", None):
        assert not looks_like_link(other)


# --- Bad links, class by class ------------------------------------------------------------------------

@settings(deadline=None, max_examples=200)
@given(random_sessions(max_roster=4), st.data())
def test_a_truncated_link_is_refused(session, data):
    fragment = encode_session(session)
    cut = data.draw(st.integers(0, len(fragment) - 1))
    with pytest.raises(LinkError):
        decode(fragment[:cut])


@settings(deadline=None, max_examples=200)
@given(random_sessions(max_roster=3), st.data())
def test_characters_that_are_not_base64url_are_refused(session, data):
    fragment = encode_session(session)
    position = data.draw(st.integers(3, len(fragment) - 1))  # inside: spaces around a pasted link are trimmed
    stranger = data.draw(st.text(st.characters(exclude_characters="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
                                               "qrstuvwxyz0123456789-_="), min_size=1, max_size=3))
    broken = fragment[:position] + stranger + fragment[position:]
    with pytest.raises(LinkError):
        decode(broken)


@settings(deadline=None)
@given(st.integers(0, 9999).filter(lambda version: version != 1), st.sampled_from(["s", "r"]))
def test_another_version_is_refused_with_a_clear_message(version, kind):
    fragment = encode_session(party_of_five())
    with pytest.raises(LinkError, match="version"):
        decode(f"{kind}{version}.{fragment[3:]}")


@settings(deadline=None, max_examples=400)
@given(json_values, st.sampled_from(["s1.", "r1."]))
def test_valid_json_of_the_wrong_shape_is_refused(value, prefix):
    decodes_cleanly_or_refuses(prefix + packed(value))


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(random_sessions(max_roster=3), st.data())
def test_a_valid_session_with_one_part_replaced_is_refused_or_clean(session, data):
    compact = link.compact_session(session)
    paths = [(index,) for index in range(len(compact))]
    paths += [(7, row, column) for row, entry in enumerate(compact[7]) for column in range(len(entry))]
    path = data.draw(st.sampled_from(paths))
    target = compact
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = data.draw(json_values)
    decodes_cleanly_or_refuses("s1." + packed(compact))


@pytest.mark.parametrize("number", [10**20, -10**20, 10**400, 2**53, -1, 1e300, 1e999, -1e999, 0.5])
def test_huge_and_odd_numbers_are_refused(number):
    compact = link.compact_session(party_of_five())
    compact[4] = number  # Tension
    raw = json.dumps(compact).encode()  # 1e999 and -1e999 become Infinity and -Infinity
    with pytest.raises(LinkError):
        decode("s1." + packed(raw))
    compact = link.compact_session(party_of_five())
    compact[7][0][3] = number  # AP
    with pytest.raises(LinkError):
        decode("s1." + packed(json.dumps(compact).encode()))


@settings(deadline=None)
@given(st.integers(61, 5000), st.sampled_from(["session", "character", "skill"]))
def test_thousands_of_characters_in_a_name_are_refused(length, where):
    compact = link.compact_session(party_of_five())
    long_name = "Ash" * (length // 3 + 27)
    if where == "session":
        compact[1] = long_name
    elif where == "character":
        compact[7][1][2] = long_name
    else:
        compact[7][1][7][0] = long_name
    with pytest.raises(LinkError, match="too long"):
        decode("s1." + packed(compact))


def test_html_in_names_is_kept_as_plain_text():
    session = party_of_five()
    hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    session["name"] = hostile[:80]
    session["roster"][0]["name"] = hostile[:60]
    decoded = decode_session(encode_session(session))
    assert decoded["name"] == hostile[:80] and decoded["roster"][0]["name"] == hostile[:60]


def test_a_lone_surrogate_or_a_control_of_json_is_refused():
    with pytest.raises(LinkError, match="broken character"):
        decode("s1." + packed(b'["abc","\\ud800","tension",3,3,3,0,[]]'))
    with pytest.raises(LinkError, match="not readable"):
        decode("s1." + packed(b'["abc","x","tension",3,NaN,3,0,[]]'))
    with pytest.raises(LinkError, match="nest far deeper"):
        decode("s1." + packed(b"[" * 100_000))


def test_a_decompression_bomb_stops_at_the_cap():
    bomb = zlib.compress(b" " * 60_000_000, 9)  # ~60 MB of JSON whitespace in ~60 KB
    fragment = "s1." + base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    assert len(fragment) < link_text.MAX_FRAGMENT
    tracemalloc.start()
    try:
        with pytest.raises(LinkError, match=f"more than the {link_text.MAX_DECODED:,} bytes this version of Tableside opens"):
            decode(fragment)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10 * link_text.MAX_DECODED + 4 * len(fragment)  # never near the 60 MB it would unpack to


def test_a_link_far_too_long_is_refused_before_decoding():
    with pytest.raises(LinkError, match=f"longer than the {link_text.MAX_FRAGMENT:,} characters this version"):
        decode("s1." + "A" * (link_text.MAX_FRAGMENT + 1))


@pytest.mark.parametrize("fragment", [None, 42, "", "#", "app", "s1.", "s1.=", "s1.A", "s1.AAAA", "r1.!!",
                                      "s1." + packed(b"not json"), "s1." + packed(b"\xff\xfe"),
                                      "s1." + base64.urlsafe_b64encode(b"not zlib at all").decode(),
                                      "s1." + packed([]) + "AAAA"])
def test_broken_links_each_get_a_message(fragment):
    with pytest.raises(LinkError) as caught:
        decode(fragment)
    assert str(caught.value).endswith(".")


@settings(deadline=None, max_examples=500)
@given(st.sampled_from(["s1.", "r1.", "s2.", ""]), st.text(max_size=300))
def test_any_text_after_a_prefix_raises_only_link_errors(prefix, text):
    decodes_cleanly_or_refuses(prefix + text)


@settings(deadline=None, max_examples=300)
@given(st.sampled_from(["s1.", "r1."]), st.binary(max_size=400))
def test_any_bytes_packed_raise_only_link_errors(prefix, raw):
    decodes_cleanly_or_refuses(prefix + packed(raw))
    decodes_cleanly_or_refuses(prefix + base64.urlsafe_b64encode(raw).decode().rstrip("="))


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(random_sessions(max_roster=3), st.data())
def test_flipped_bits_in_a_link_raise_only_link_errors(session, data):
    raw = bytearray(zlib.compress(json.dumps(link.compact_session(session), separators=(",", ":")).encode()))
    for _ in range(data.draw(st.integers(1, 3))):
        position = data.draw(st.integers(0, len(raw) - 1))
        raw[position] ^= 1 << data.draw(st.integers(0, 7))
    decodes_cleanly_or_refuses("s1." + base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("="))


# --- Sizes --------------------------------------------------------------------------------------------

BASE = "https://tableside.netlify.app/"  # a typical deployed address; the app uses its own


def measure(session: dict) -> dict:
    url = BASE + "#" + encode_session(session)
    code = segno.make_qr(url, error="l", boost_error=True)
    return {"fragment": len(url) - len(BASE) - 1, "url": len(url), "qr": code.designator,
            "modules": code.symbol_size(border=0)[0]}


def test_link_sizes_are_measured_and_fit_well_inside_a_qr_code():
    empty = new_session()
    one = party_of_five()
    one["roster"] = one["roster"][:1]
    five = party_of_five()
    written = party_of_five()
    written["tension_table"] = [
        "The lights die and something in the dark starts breathing.",
        "Reinforcements: the cult's enforcers arrive through the back door.",
        "The floor gives way into the old sewer tunnels below.",
        "An old enemy of Brin's recognises the party and calls the watch.",
        "The ritual clock jumps forward: one hour less before midnight.",
        "Everything at once: roll twice more and keep both results."]
    sizes = {"empty": measure(empty), "one character": measure(one), "five characters": measure(five),
             "five characters and a written Tension Table": measure(written)}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    lines = [f"{name}: fragment {size['fragment']} chars, URL {size['url']} chars with {BASE}, "
             f"QR {size['qr']} ({size['modules']}x{size['modules']} modules)" for name, size in sizes.items()]
    (ARTIFACTS / "link-sizes.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    assert sizes["empty"]["fragment"] < 100
    assert sizes["five characters"]["fragment"] < 600
    # A QR code holds up to 2953 bytes (version 40-L); a party of five needs about a fifth of that.
    assert int(sizes["five characters"]["qr"].split("-")[0]) <= 18
    assert int(sizes["five characters and a written Tension Table"]["qr"].split("-")[0]) <= 22
