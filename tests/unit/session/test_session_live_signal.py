"""Live table codes (session.live.signal): the browsers' real offers and answers (captured in
a private network namespace by tests/browser/capture_live_sdp.py) round-trip through a code
small enough for a QR code, random signals round-trip, and any text at all, mutated, cut or
far too long, reads as a LiveCodeError or a valid signal, never anything else."""
import base64
import ipaddress
import re
from pathlib import Path

import pytest
import segno
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session import SessionError
from session.live import signal as live_signal
from session.live.signal import ANSWER, OFFER, Candidate, LiveCodeError, Signal, from_sdp, read

SAMPLES = Path(__file__).resolve().parent / "live_sdp"
FUZZ = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def samples() -> dict[str, str]:
    """file name -> SDP; names say the browser, whether its camera was open, and offer or answer."""
    return {path.name: path.read_bytes().decode() for path in sorted(SAMPLES.glob("*.sdp"))}


def kind_of(name: str) -> str:
    return ANSWER if name.endswith("-answer.sdp") else OFFER


def qr_version(text: str) -> int:
    return segno.make(text, error="L").version


def reads_cleanly_or_refuses(text):
    """The property every fuzz test checks: LiveCodeError with a sentence, or a valid signal
    that is this very code (one code, one signal) and writes an SDP."""
    try:
        signal = read(text)
    except LiveCodeError as error:
        message = str(error)
        assert message.endswith(".") and "\n" not in message and "Traceback" not in message
        return None
    assert signal.code() == text.strip()
    assert signal.sdp().startswith("v=0\r\n")
    return signal


# --- The browsers' own offers and answers --------------------------------------------------------

@pytest.mark.parametrize("name", sorted(samples()))
def test_a_real_offer_or_answer_round_trips_through_its_code(name):
    sdp, kind = samples()[name], kind_of(name)
    signal = from_sdp(kind, sdp, 0x1234ABCD)
    code = signal.code()
    assert code.startswith({OFFER: "O1.", ANSWER: "A1."}[kind])
    assert read(code) == signal and read(f"  {code}\n") == signal
    assert from_sdp(kind, signal.sdp(), 0x1234ABCD) == signal  # the SDP written back says the same
    minimal = signal.sdp()
    for field in ("ice-ufrag", "ice-pwd", "fingerprint"):
        [line] = [line for line in sdp.splitlines() if line.startswith(f"a={field}:")]
        assert line in minimal.splitlines()
    assert f"a=setup:{'actpass' if kind == OFFER else 'active'}" in minimal
    assert len(minimal) < len(sdp) and "tcp" not in minimal
    assert 1 <= len(signal.candidates) <= live_signal.KEPT_CANDIDATES


def test_the_codes_sizes_in_characters_and_qr_versions():
    """Printed, not asserted beyond sanity: the sizes that matter for scanning across a table.
    Base45 and upper-case base32 both use the QR code's alphanumeric mode; base45 is the code."""
    print("\nlive table codes: bytes; base45 characters (QR version); base32 characters (QR version)")
    for name, sdp in samples().items():
        signal = from_sdp(kind_of(name), sdp, 7)
        fewer = signal.candidates[:1] if signal.kind == OFFER else ()
        print(f"  {name}: the browser's SDP {len(sdp)} characters (QR {qr_version(sdp)})")
        for one in (signal, Signal(signal.kind, 7, signal.ufrag, signal.pwd, signal.fingerprint, fewer)):
            base45 = one.code()
            base32 = base45[:3] + base64.b32encode(one.packed()).decode().rstrip("=")
            print(f"    its code with {len(one.candidates)} candidate(s): {len(one.packed())} bytes; "
                  f"base45 {len(base45)} ({qr_version(base45)}); base32 {len(base32)} ({qr_version(base32)})")
            assert qr_version(base45) <= min(6, qr_version(base32))
        assert qr_version(sdp) >= 15


def test_an_answer_names_the_offer_it_answers():
    name = next(name for name in samples() if kind_of(name) == ANSWER)
    code = live_signal.answer_code(samples()[name], 4_000_000_000)
    assert read(code).offer_id == 4_000_000_000 and read(code).kind == ANSWER
    ids = {live_signal.new_offer_id() for _ in range(50)}
    assert len(ids) == 50 and all(0 <= i <= live_signal.MAX_OFFER_ID for i in ids)


def test_candidates_keep_the_cheapest_networks_first_and_only_local_addresses():
    sdp = samples()["chromium-156-camera-offer.sdp"].replace(
        "a=ice-ufrag", "\r\n".join([
            "a=candidate:9 1 udp 2122260223 203.0.113.9 5000 typ host",  # public: never in a code
            "a=candidate:9 1 udp 2122260223 2001:db8::9 5000 typ host",  # global IPv6: never either
            "a=candidate:9 1 udp 1686052607 192.168.1.20 6000 typ srflx raddr 0.0.0.0 rport 0",
            "a=candidate:9 1 udp 2122260223 192.168.1.20 7000 typ host network-cost 900",  # cellular
            "a=ice-ufrag"]))
    kept = from_sdp(OFFER, sdp, 1).candidates
    assert [c.address for c in kept] == ["10.77.0.2", "10.77.0.3", "fd77::2"]
    assert live_signal.kept_candidates(["candidate:1 1 udp 1 192.168.1.20 7000 typ host network-cost 900",
                                        "candidate:2 1 UDP 1 FD00::1 7001 typ host"]) == (
        Candidate("fd00::1", 7001), Candidate("192.168.1.20", 7000))


# --- What from_sdp cannot turn into a code ------------------------------------------------------

@pytest.mark.parametrize("change, says", [
    (("a=setup:actpass", "a=setup:passive"), "DTLS role is not actpass"),
    (("a=fingerprint:sha-256", "a=fingerprint:sha-384"), "no SHA-256 certificate fingerprint"),
    (("a=sctp-port:5000", "a=sctp-port:5001"), "SCTP port 5000"),
    (("m=application", "m=audio"), "not one data channel"),
    (("a=ice-ufrag:", "a=ice-ufrag:-"), "ICE credentials"),
])
def test_an_sdp_a_code_cannot_carry_says_what(change, says):
    sdp = samples()["chromium-156-camera-offer.sdp"].replace(*change)
    with pytest.raises(LiveCodeError, match=says):
        from_sdp(OFFER, sdp, 1)


def test_an_offer_with_no_local_address_says_to_join_the_wifi():
    sdp = "\r\n".join(line for line in samples()["chromium-156-camera-offer.sdp"].splitlines()
                      if "candidate" not in line)
    with pytest.raises(LiveCodeError, match="join the table's Wi-Fi"):
        from_sdp(OFFER, sdp, 1)
    assert from_sdp(ANSWER, sdp.replace("actpass", "active"), 1).candidates == ()  # an answer may have none
    with pytest.raises(LiveCodeError, match="far too long"):
        from_sdp(OFFER, sdp * 100, 1)
    with pytest.raises(ValueError):
        from_sdp("hello", sdp, 1)


# --- Reading codes, which come from outside -----------------------------------------------------

def test_the_base45_alphabet_is_rfc_9285s():
    for data, text in ((b"AB", "BB8"), (b"Hello!!", "%69 VD92EX0"), (b"base-45", "UJCLQE7W581"), (b"ietf!", "QED8WEX0")):
        assert live_signal.to_base45(data) == text and live_signal.from_base45(text) == data
    with pytest.raises(LiveCodeError):
        live_signal.from_base45("GGW")  # 65536: more than two bytes hold


@pytest.mark.parametrize("text, says", [
    ("", "not a Tableside live table code"),
    ("https://example.com/", "not a Tableside live table code"),
    ("S2.ABC", "not a Tableside live table code"),
    ("O2.ABC", "newer version of Tableside (live code version 2)"),
    ("A0.ABC", "version (0) is not one"),
    ("O1.abc", "characters a Tableside code never has"),
    ("O1.A", "cut short"),
    ("O1.ABC", "cut short"),
    ("O1." + "0" * 500, "far too long"),
    ("O1." + "0" * 10_000_000, "far too long"),
])
def test_a_code_that_cannot_be_read_says_why(text, says):
    with pytest.raises(LiveCodeError, match=re.escape(says)):
        read(text)
    assert issubclass(LiveCodeError, SessionError)


def test_a_code_naming_an_address_outside_the_local_network_is_refused():
    signal = from_sdp(OFFER, samples()["chromium-156-camera-offer.sdp"], 1)
    public = signal.packed().replace(bytes([10, 77, 0, 2]), bytes([8, 8, 8, 8]))
    with pytest.raises(LiveCodeError, match="outside the local network"):
        read("O1." + live_signal.to_base45(public))


def test_the_largest_code_still_fits_a_qr_code():
    most = Signal(OFFER, live_signal.MAX_OFFER_ID, "u" * 64, "p" * 64, bytes(32),
                  tuple(Candidate(f"fd00::{n + 1}", 65535) for n in range(live_signal.MAX_CANDIDATES)))
    assert len(most.code()) <= live_signal.MAX_CODE and qr_version(most.code()) == 10


def test_hex_credentials_travel_as_hex_only():
    """Firefox's credentials are hex digits, packed 4 bits each: the same text packed 6 bits
    each would be a second code for one signal, so it is refused."""
    signal = from_sdp(OFFER, samples()["firefox-153-no-camera-offer.sdp"], 1)
    assert set(signal.ufrag + signal.pwd) <= live_signal.HEX_SET
    six = bytes([len(signal.ufrag)]) + (int("".join(f"{live_signal.ICE_CHARACTERS.index(c):06b}" for c in signal.ufrag), 2)
                                        ).to_bytes(len(signal.ufrag) * 6 // 8, "big")
    packed = signal.packed()
    hexed = live_signal.packed_text(signal.ufrag)
    assert hexed[0] == len(signal.ufrag) | live_signal.HEXED and packed[4:4 + len(hexed)] == hexed
    with pytest.raises(LiveCodeError):
        read("O1." + live_signal.to_base45(packed[:4] + six + packed[4 + len(hexed):]))


def test_looks_like_code():
    code = from_sdp(OFFER, samples()["chromium-156-camera-offer.sdp"], 1).code()
    assert live_signal.looks_like_code(code) and live_signal.looks_like_code(" A1.X ")
    assert not any(map(live_signal.looks_like_code, ["S2.ABC", "#s1.abc", "hello", None, 5]))


# --- Random signals and hostile codes -----------------------------------------------------------

ipv4 = st.sampled_from(["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16"])
ipv6 = st.sampled_from(["fc00::/7", "fe80::/10"])


@st.composite
def candidates(draw):
    kind = draw(st.sampled_from(["v4", "v6", "mdns"]))
    if kind == "mdns":
        digits = draw(st.binary(min_size=16, max_size=16)).hex()
        address = f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}.local"
    else:
        network = ipaddress.ip_network(draw(ipv4 if kind == "v4" else ipv6))
        address = str(network[draw(st.integers(0, network.num_addresses - 1))])
    return Candidate(address, draw(st.integers(1, 65535)))


def ice_texts(least: int):
    """Credentials as Chromium and Safari write them (any ICE characters), or as Firefox does
    (hex digits, packed tighter)."""
    return st.one_of(st.text(alphabet=live_signal.ICE_CHARACTERS, min_size=least, max_size=64),
                     st.text(alphabet=live_signal.HEX, min_size=least, max_size=64))


@st.composite
def signals(draw, most=live_signal.MAX_CANDIDATES):
    kind = draw(st.sampled_from([OFFER, ANSWER]))
    return Signal(kind, draw(st.integers(0, live_signal.MAX_OFFER_ID)), draw(ice_texts(4)), draw(ice_texts(22)),
                  draw(st.binary(min_size=32, max_size=32)),
                  tuple(draw(st.lists(candidates(), min_size=1 if kind == OFFER else 0, max_size=most,
                                      unique=True))))


@FUZZ
@given(signals())
def test_every_signal_round_trips_through_its_code(signal):
    code = signal.code()
    assert read(code) == signal and len(code) <= live_signal.MAX_CODE
    assert all(c in live_signal.BASE45 for c in code[3:])


@FUZZ
@given(signals(most=live_signal.KEPT_CANDIDATES))
def test_every_signal_round_trips_through_its_sdp(signal):
    order = [live_signal.IPV4, live_signal.MDNS, live_signal.IPV6]
    ranked = tuple(sorted(signal.candidates, key=lambda c: order.index(live_signal.candidate_kind(c.address))))
    again = from_sdp(signal.kind, signal.sdp(), signal.offer_id)
    assert again == Signal(signal.kind, signal.offer_id, signal.ufrag, signal.pwd, signal.fingerprint, ranked)


@st.composite
def mutated_codes(draw):
    code = draw(signals()).code()
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(code)))
        how = draw(st.sampled_from(["replace", "insert", "delete", "cut"]))
        character = draw(st.sampled_from(live_signal.BASE45 + "aé\x00\n.O1A"))
        if how == "replace" and at < len(code):
            code = code[:at] + character + code[at + 1:]
        elif how == "insert":
            code = code[:at] + character + code[at:]
        elif how == "delete":
            code = code[:at] + code[at + 1:]
        else:
            code = code[:at]
    return code


@FUZZ
@given(mutated_codes())
def test_a_mutated_or_cut_code_reads_cleanly_or_refuses(code):
    reads_cleanly_or_refuses(code)


@FUZZ
@given(st.one_of(
    st.text(max_size=600),
    st.text(alphabet=live_signal.BASE45, max_size=600).map(lambda data: "O1." + data),
    st.text(alphabet=live_signal.BASE45, max_size=600).map(lambda data: "A1." + data),
    st.binary(max_size=300).map(lambda data: "A1." + live_signal.to_base45(data)),
))
def test_random_text_reads_cleanly_or_refuses(text):
    reads_cleanly_or_refuses(text)


@FUZZ
@given(st.one_of(st.none(), st.integers(), st.binary(), st.lists(st.text())))
def test_what_is_not_text_is_refused(value):
    with pytest.raises(LiveCodeError):
        read(value)


@FUZZ
@given(signals(), st.binary(max_size=40), st.integers(0, 200))
def test_bytes_spliced_into_a_valid_code_read_cleanly_or_refuse(signal, junk, at):
    packed = signal.packed()
    at = min(at, len(packed))
    reads_cleanly_or_refuses("OA"[signal.kind == ANSWER] + "1." + live_signal.to_base45(packed[:at] + junk + packed[at:]))
