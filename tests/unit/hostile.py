"""Hostile data for the fuzz tests (unit here, a fixed sample in the browser): nested JSON
of any depth, arbitrary bytes, arbitrary Unicode (lone surrogates included), and each of
them spliced into an otherwise valid session, export or link."""
from __future__ import annotations

import base64
import json
import zlib

from hypothesis import strategies as st

import session as sessions
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


def splice(value, path, text: str) -> str:
    """`value` as JSON text with the value at `path` replaced by raw JSON `text`."""
    copied = json.loads(json.dumps(value))
    holder = copied
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = SLOT
    return json.dumps(copied, ensure_ascii=False).replace(json.dumps(SLOT), text, 1)


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

    exported = json.loads(sessions.export_text(Replica.from_session(logged_party())))
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
            payload = sessions.link.compact_session(logged_party())
        else:
            payload = {"r": logged_party()["log"][0]["record"], "b": "Ash", "n": "Friday"}
        path = draw(st.sampled_from(list(json_paths(payload))))
        return kind + packed(splice(payload, path, draw(hostile_json)).encode("utf-8", "surrogatepass"))
    if how == "bytes":
        return kind + packed(draw(any_bytes))
    if how == "unicode":
        return kind + packed(draw(any_unicode).encode("utf-8", "surrogatepass"))
    return kind + draw(any_unicode)
