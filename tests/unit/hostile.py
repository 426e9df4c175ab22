"""Hostile data for the fuzz tests (unit here, a fixed sample in the browser): nested JSON
of any depth, arbitrary bytes, arbitrary Unicode (lone surrogates included), and each of
them spliced into an otherwise valid session, export or link."""
from __future__ import annotations

import base64
import functools
import json
import zlib

from hypothesis import strategies as st

from session.links.files import export_text
from session.links.v1 import compact_session
from samples import logged_party

SLOT = "\x00slot\x00"
FILLERS = st.sampled_from(['0', '"x"', '"[{\\"]"', 'true', 'null', '-1e999', '"\\ud800"', '""', '{}', '[]'])
any_unicode = st.text(st.characters(exclude_categories=()), max_size=300)  # lone surrogates too
any_bytes = st.binary(max_size=2000)


@st.composite
def nested_json(draw) -> str:
    """JSON text nested anywhere from 0 to 20,000 deep (far past where Pyodide's parser dies),
    objects and arrays mixed, often left unclosed or closed wrongly."""
    depth = draw(st.one_of(st.integers(0, 40), st.integers(0, 20_000)))
    kinds = draw(st.text("[{", min_size=1, max_size=3))
    opening = "".join('{"k":' if kinds[level % len(kinds)] == "{" else "[" for level in range(depth))
    closing = "".join("}" if kinds[level % len(kinds)] == "{" else "]" for level in reversed(range(depth)))
    ending = draw(st.sampled_from(["whole", "unclosed", "cut", "swapped"]))
    if ending == "unclosed":
        closing = closing[:len(closing) // 2]
    elif ending == "swapped":
        closing = closing.translate(str.maketrans("]}", "}]"))
    text = opening + draw(FILLERS) + closing
    return text[:len(text) // 2] if ending == "cut" else text


def json_paths(value, prefix=()):
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        yield prefix + (key,)
        yield from json_paths(item, prefix + (key,))


def leaf(value, path):
    for key in path:
        value = value[key]
    return value


def splice(value, path, text: str) -> str:
    """`value` as JSON text with the value at `path` replaced by raw JSON `text`."""
    copied = json.loads(json.dumps(value))
    holder = copied
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = SLOT
    return json.dumps(copied, ensure_ascii=False).replace(json.dumps(SLOT), text, 1)


# Well-formed JSON of any shape: spliced in, it reaches the checks behind the parser.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | any_unicode,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_unicode, inner, max_size=4),
    max_leaves=12).map(lambda value: json.dumps(value, ensure_ascii=False))
hostile_json = st.one_of(nested_json(), any_unicode.map(lambda text: json.dumps(text, ensure_ascii=False)),
                         any_unicode, st.just('"\\ud800"'), st.just('"\\udc00\\ud800"'))


@st.composite
def hostile_session_text(draw) -> str:
    """A saved session (with its log) with one value replaced by hostile JSON, or hostile text."""
    party = logged_party()
    if draw(st.booleans()):
        return draw(st.one_of(nested_json(), any_unicode))
    path = draw(st.sampled_from(list(json_paths(party))))
    return splice(party, path, draw(hostile_json))


@st.composite
def hostile_export_text(draw) -> str:
    from session.replica import Replica

    exported = json.loads(export_text(Replica.from_session(logged_party())))
    if draw(st.booleans()):
        return draw(st.one_of(nested_json(), any_unicode, any_bytes.map(lambda raw: raw.decode("utf-8", "replace"))))
    path = draw(st.sampled_from(list(json_paths(exported))))
    return splice(exported, path, draw(hostile_json))


def packed(raw: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


@st.composite
def hostile_fragment(draw) -> str:
    """A share or roll link fragment carrying hostile data, packed as links are, or not at all."""
    kind = draw(st.sampled_from(["s1.", "r1."]))
    how = draw(st.sampled_from(["nested", "spliced", "bytes", "unicode", "raw"]))
    if how == "nested":
        return kind + packed(draw(nested_json()).encode("utf-8"))
    if how == "spliced":
        if kind == "s1.":
            payload = compact_session(logged_party())
        else:
            payload = {"r": logged_party()["log"][0]["record"], "b": "Ash", "n": "Friday"}
        path = draw(st.sampled_from(list(json_paths(payload))))
        return kind + packed(splice(payload, path, draw(hostile_json)).encode("utf-8", "surrogatepass"))
    if how == "bytes":
        return kind + packed(draw(any_bytes))
    if how == "unicode":
        return kind + packed(draw(any_unicode).encode("utf-8", "surrogatepass"))
    return kind + draw(any_unicode)


def packed_v2(raw: bytes) -> str:
    """Packed as version-2 links are: zlib with the preset dictionary, upper-case base32 unpadded."""
    from session.links.v2 import PRESET

    packer = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY, PRESET)
    return base64.b32encode(packer.compress(raw) + packer.flush()).decode("ascii").rstrip("=")


@functools.cache  # one of each: a new session gets a new id, and examples must replay
def logged_replica():
    from session.replica import Replica

    return Replica.from_session(logged_party())


@functools.cache
def valid_v2(kind: str) -> str:
    """A version-2 session link (`S2.`) or roll link (`R2.`) of `logged_replica()`, as the app writes it."""
    from session.links import v2 as link_v2

    replica = logged_replica()
    if kind == "S2.":
        return link_v2.session_link(replica)
    return link_v2.roll_message(replica, next(iter(replica.log)), "Friday")


BASE32_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


@st.composite
def mutated(draw, text: str) -> str:
    """`text` cut short, or with a few characters changed, dropped or added (base32 ones mostly)."""
    if draw(st.booleans()):
        return text[:draw(st.integers(0, len(text) - 1))]
    letters = list(text)
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(3, len(letters) - 1))  # after "S2."
        letter = draw(st.one_of(st.sampled_from(BASE32_LETTERS), st.characters()))
        how = draw(st.sampled_from(["change", "drop", "add"]))
        if how == "change":
            letters[where] = letter
        elif how == "drop":
            del letters[where]
        else:
            letters.insert(where, letter)
    return "".join(letters)


@st.composite
def hostile_v2_fragment(draw) -> str:
    """A version-2 link carrying hostile data: a valid one mutated or cut short, its compressed
    JSON spliced with hostile JSON (deep nesting included) or replaced outright, random base32,
    or far too large."""
    from session.links.text import unpack
    from session.links.v2 import PRESET

    kind = draw(st.sampled_from(["S2.", "R2."]))
    how = draw(st.sampled_from(["mutated", "spliced", "spliced", "changed", "changed", "nested", "bytes", "unicode", "base32", "oversize", "raw"]))
    if how == "mutated":
        return draw(mutated(valid_v2(kind)))
    if how == "spliced":
        payload = unpack(valid_v2(kind)[3:], 2, PRESET)
        path = draw(st.sampled_from(list(json_paths(payload))))
        value = draw(st.one_of(hostile_json, json_values))
        return kind + packed_v2(splice(payload, path, value).encode("utf-8", "surrogatepass"))
    if how == "changed":  # one number or text changed for another: it passes the parser, often the checks
        payload = unpack(valid_v2(kind)[3:], 2, PRESET)
        leaves = [path for path in json_paths(payload) if isinstance(leaf(payload, path), (int, str))]
        path = draw(st.sampled_from(leaves))
        value = draw(st.integers(-10, 100) if isinstance(leaf(payload, path), int) else any_unicode)
        return kind + packed_v2(splice(payload, path, json.dumps(value, ensure_ascii=False)).encode(
            "utf-8", "surrogatepass"))
    if how == "nested":
        return kind + packed_v2(draw(nested_json()).encode("utf-8"))
    if how == "bytes":
        return kind + packed_v2(draw(any_bytes))
    if how == "unicode":
        return kind + packed_v2(draw(any_unicode).encode("utf-8", "surrogatepass"))
    if how == "base32":
        return kind + draw(st.text(BASE32_LETTERS, max_size=400))
    if how == "oversize":  # past what any link may unpack to, compressing to almost nothing
        filler = draw(st.sampled_from([b" ", b"[", b'{"k":', b"0,"]))
        return kind + packed_v2(filler * draw(st.integers(200_001, 2_000_000)))
    return kind + draw(any_unicode)
