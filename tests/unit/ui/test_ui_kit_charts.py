"""ui.kit.charts under CPython: every picture is valid SVG that scales to a 320 px phone, says in
its label what it shows, keeps user text as text, and holds at the extremes (0 %, 100 %, one
total, 60 totals and more, a long session)."""
import re
import xml.etree.ElementTree as ElementTree
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import odds
from rules.words import isolate
from ui.kit import charts
from ui.kit.percent import percent

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<img src=x onerror=a()> & "q"'


def parsed(markup: str) -> ElementTree.Element:
    """The picture as an XML tree (inline SVG in HTML carries no namespace: add it to parse)."""
    assert markup.startswith("<svg ")
    root = ElementTree.fromstring(markup.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
    return root


def fits_a_phone(root: ElementTree.Element) -> None:
    """Scales to its container: a viewBox no wider than 320, no width or height of its own, no
    style attribute (CSP style-src 'self'), every text and shape inside the viewBox."""
    left, top, width, height = (float(value) for value in root.get("viewBox").split())
    assert (left, top) == (0, 0) and width <= 320
    assert root.get("width") is None and root.get("height") is None
    assert root.get("role") == "img" and root.get("aria-label")
    assert "chart" in root.get("class").split()
    for element in root.iter():
        assert element.get("style") is None
        assert element.get("fill") is None and element.get("stroke") is None  # colours come from classes
        for name in ("x", "cx"):
            if element.get(name) is not None:
                assert 0 <= float(element.get(name)) <= width
        for name in ("y", "cy"):
            if element.get(name) is not None:
                assert 0 <= float(element.get(name)) <= height
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", element.get("points", ""))]
        assert all(0 <= value <= width for value in numbers[0::2])
        assert all(0 <= value <= height for value in numbers[1::2])


def texts(root: ElementTree.Element) -> list[str]:
    return ["".join(element.itertext()) for element in root.iter(f"{SVG}text")]


# --- Chances as bars -------------------------------------------------------------------------------

@given(st.fractions(min_value=0, max_value=1))
def test_a_percentage_is_the_chance_rounded_as_round_rounds_a_fraction(chance):
    """percent works in whole numbers; it says what round(chance * 100) says (half to even)."""
    value = round(chance * 100)
    expected = {0: "<1 %", 100: ">99 %"}.get(value, f"{value} %")
    assert percent(chance) == ("0 %" if chance == 0 else "100 %" if chance == 1 else expected)
    halfway = {Fraction(1, 200): "<1 %", Fraction(5, 200): "2 %", Fraction(7, 200): "4 %", Fraction(199, 200): ">99 %"}
    assert {chance: percent(chance) for chance in halfway} == halfway


def test_bars_share_one_scale_and_say_every_chance():
    rows = [("GM keeps 2", Fraction(63, 100)), ("GM boosts", Fraction(35, 100)),
            ("GM pays 1 for extra dice", Fraction(39, 100))]
    drawn = charts.chance_bars(rows, "Player's chance of success with 5 dice")
    root = parsed(drawn)
    fits_a_phone(root)
    assert root.get("aria-label") == ("Player's chance of success with 5 dice. "
                                      "GM keeps 2: 63 %; GM boosts: 35 %; GM pays 1 for extra dice: 39 %")
    assert texts(root) == ["GM keeps 2", "63 %", "GM boosts", "35 %", "GM pays 1 for extra dice", "39 %"]
    track, bars = (root.find(f"{SVG}path[@class='chart-{kind}']").get("d") for kind in ("track", "bar"))
    widths = [float(width) for width in re.findall(r"h(\d+(?:\.\d+)?)v", bars)]
    full = float(re.search(r"h(\d+(?:\.\d+)?)v", track).group(1))
    assert widths == [pytest.approx(full * 0.63, abs=0.05), pytest.approx(full * 0.35, abs=0.05),
                      pytest.approx(full * 0.39, abs=0.05)]


def test_bars_at_0_and_100_percent_and_a_chance_too_small_to_see():
    root = parsed(charts.chance_bars([("Never", Fraction(0)), ("Always", Fraction(1)),
                                      ("Hardly", Fraction(1, 6 ** 15))], ""))
    fits_a_phone(root)
    assert root.get("aria-label") == "Never: 0 %; Always: 100 %; Hardly: <1 %"
    bars = root.find(f"{SVG}path[@class='chart-bar']").get("d")
    assert bars.count("M") == 2  # nothing drawn for 0 %; a possible outcome shows a sliver
    assert texts(root)[1::2] == ["0 %", "100 %", "<1 %"]
    assert charts.chance_bars([], "Nothing") == ""


def test_names_in_bars_are_text_isolated_and_a_long_one_is_shortened_on_screen_only():
    long_name = "Bartholomew-the-Unconquerable-of-the-North"
    rows = [(f"{isolate(HOSTILE)} succeeds", Fraction(1, 3)), (f"{isolate(long_name)} succeeds", Fraction(1, 2)),
            (f"{isolate('‮evil')} holds", Fraction(1, 4))]
    drawn = charts.chance_bars(rows, f"Chances for {isolate(HOSTILE)}")
    assert "<img" not in drawn and "\u202e" not in parsed(drawn).get("aria-label")
    root = parsed(drawn)
    fits_a_phone(root)
    assert root.get("aria-label").startswith(f"Chances for {HOSTILE}. {HOSTILE} succeeds: 33 %; "
                                             f"{long_name} succeeds: 50 %")
    first, second = (root.findall(f"{SVG}text")[index] for index in (0, 2))
    assert first.find(f"{SVG}tspan").get("class") == "isolate" and first.find(f"{SVG}tspan").text == HOSTILE
    assert texts(root)[2].endswith("…") and len(texts(root)[2]) == charts.LABEL_CHARACTERS


# --- Distributions of totals ------------------------------------------------------------------------

def columns(root, kind) -> list[tuple[float, float]]:
    """(x, height) of each column of a kind."""
    path = root.find(f"{SVG}path[@class='chart-{kind}']")
    if path is None:
        return []
    return [(float(x), float(height)) for x, height in
            re.findall(r"M(-?\d+(?:\.\d+)?) -?\d+(?:\.\d+)?h\d+(?:\.\d+)?v(\d+(?:\.\d+)?)", path.get("d"))]


def test_totals_mark_the_target_and_shade_what_beats_it_with_the_chance_the_odds_give():
    totals = odds.tension_kept_totals(5)
    root = parsed(charts.totals_chart(totals, "Bo's totals with 5 dice, keeping 2", 8))
    fits_a_phone(root)
    success = odds.tension_against_total(5, 0, 8)["success"]
    assert root.get("aria-label") == (f"Bo's totals with 5 dice, keeping 2: 2 to 12, most likely 11 "
                                      f"({percent(totals[11])}); {percent(success)} above 8")
    assert len(columns(root, "win")) == 4 and len(columns(root, "lose")) == 7
    assert max(height for _, height in columns(root, "win")) == charts.COLUMNS_HEIGHT  # 11 is the tallest
    target = float(re.match(r"M(\d+(?:\.\d+)?)", root.find(f"{SVG}path[@class='chart-target']").get("d")).group(1))
    assert max(x for x, _ in columns(root, "lose")) < target < min(x for x, _ in columns(root, "win"))
    assert texts(root) == [f"{percent(success)} above 8", "2", "8", "12"]


def test_totals_word_the_winning_part_as_asked():
    totals = odds.anomaly_total_distribution(1, 0, [{"kind": "Gear", "value": 2}])
    root = parsed(charts.totals_chart(totals, f"{isolate('Rook')}'s totals", 9, f"beat {isolate('Vex')}'s 9"))
    fits_a_phone(root)
    success = odds.anomaly_check(1, 0, [{"kind": "Gear", "value": 2}], 9)["success"]
    assert root.get("aria-label").endswith(f"; {percent(success)} beat Vex's 9")
    assert texts(root)[0] == f"{percent(success)} beat Vex's 9"


@pytest.mark.parametrize("target, shaded, words", [(-5, 11, "100 % above -5"), (1, 11, "100 % above 1"),
                                                   (12, 0, "0 % above 12"), (40, 0, "0 % above 40")])
def test_a_target_outside_the_totals_shades_all_or_nothing(target, shaded, words):
    root = parsed(charts.totals_chart(odds.tension_kept_totals(4), "Totals", target))
    fits_a_phone(root)
    assert len(columns(root, "win")) == shaded and len(columns(root, "lose")) == 11 - shaded
    assert root.get("aria-label").endswith(words)
    assert texts(root)[1:] == ["2", "12"]  # no tick for a target off the scale


def test_one_total_is_one_column_and_said_so():
    root = parsed(charts.totals_chart({0: Fraction(1)}, "No dice", 0))
    fits_a_phone(root)
    assert root.get("aria-label") == "No dice: always 0; 0 % above 0"
    [(x, height)] = columns(root, "lose")
    assert height == charts.COLUMNS_HEIGHT and 100 < x < 200  # centred, not 300 units wide
    root = parsed(charts.totals_chart({7: Fraction(1)}, "Given"))
    assert root.get("aria-label") == "Given: always 7" and root.find(f"{SVG}path[@class='chart-target']") is None


@pytest.mark.parametrize("pool, paid", [(15, 13), (40, 38)])  # 76 and 201 totals
def test_many_totals_still_fit_and_stay_small(pool, paid):
    totals = odds.tension_kept_totals(pool, paid)
    assert len(totals) >= 60
    drawn = charts.totals_chart(totals, "Many", sum(totals) // len(totals))
    root = parsed(drawn)
    fits_a_phone(root)
    assert len(columns(root, "win")) + len(columns(root, "lose")) == len(totals)
    assert all(height >= 1 for _, height in columns(root, "win") + columns(root, "lose"))  # none vanishes
    assert len(drawn) < 30 * len(totals) + 800


@settings(max_examples=60, deadline=None)
@given(good=st.integers(0, 4), bad=st.integers(0, 4), modifier=st.integers(-5, 9), difficulty=st.integers(0, 25))
def test_the_shaded_part_is_the_chance_of_success(good, bad, modifier, difficulty):
    modifiers = [{"kind": "Skill", "value": modifier}]
    root = parsed(charts.totals_chart(odds.anomaly_total_distribution(good, bad, modifiers), "Rook", difficulty))
    fits_a_phone(root)
    success = odds.anomaly_check(good, bad, modifiers, difficulty)["success"]
    assert root.get("aria-label").endswith(f"; {percent(success)} above {difficulty}")


# --- A level over a session -----------------------------------------------------------------------

def test_tension_over_a_session_marks_each_multiple_of_10_it_climbed_to():
    values = [3, 4, 6, 9, 11, 10, 8, 12, 19, 21, 5]
    root = parsed(charts.level_line(values, "Tension over 11 conflicts"))
    fits_a_phone(root)
    assert root.get("aria-label") == ("Tension over 11 conflicts: from 3 to 5, highest 21; "
                                      "it climbed to 10, 10 and 20")
    assert texts(root) == ["10", "20", "30"]  # the scale goes to the next multiple above the highest
    assert root.find(f"{SVG}path[@class='chart-grid']").get("d").count("M") == 3
    assert root.find(f"{SVG}path[@class='chart-mark']").get("d").count("M") == 3
    assert len(root.find(f"{SVG}polyline").get("points").split()) == len(values)


def test_one_value_is_a_dot_and_a_flat_session_has_no_marks():
    root = parsed(charts.level_line([4], "Tension"))
    fits_a_phone(root)
    assert root.get("aria-label") == "Tension: from 4 to 4, highest 4"
    assert root.find(f"{SVG}circle") is not None and root.find(f"{SVG}path[@class='chart-mark']") is None
    root = parsed(charts.level_line([0, 0, 0], "Tension"))
    fits_a_phone(root)
    assert texts(root) == ["10"]
    assert charts.level_line([], "Tension") == ""


def test_a_jump_past_two_multiples_marks_both_and_a_long_session_stays_small():
    jump = parsed(charts.level_line([8, 21], "T"))
    assert jump.get("aria-label") == "T: from 8 to 21, highest 21; it climbed to 10 and 20"
    values = [(position * 7) % 99 for position in range(20_000)]
    drawn = charts.level_line(values, "Tension over 20,000 conflicts")
    root = parsed(drawn)
    fits_a_phone(root)
    assert len(root.find(f"{SVG}polyline").get("points").split()) <= charts.MOST_POINTS
    assert root.get("aria-label").endswith("times") and len(drawn) < 12_000
    assert "98" in root.get("aria-label")  # the highest value survives the thinning
    points = [float(point.split(",")[1]) for point in root.find(f"{SVG}polyline").get("points").split()]
    assert min(points) == pytest.approx(charts.LINE_TOP + charts.LINE_HEIGHT * (1 - 98 / 100), abs=0.05)


def test_a_high_level_numbers_its_scale_without_overlapping():
    root = parsed(charts.level_line([3, 40, 99], "Tension"))
    fits_a_phone(root)
    assert root.find(f"{SVG}path[@class='chart-grid']").get("d").count("M") == 10  # every multiple of 10 to 100
    assert texts(root) == ["20", "40", "60", "80", "100"]
    heights = [float(text.get("y")) for text in root.findall(f"{SVG}text")]
    assert min(abs(a - b) for a, b in zip(heights, heights[1:])) >= 14


# --- Drawn once per distribution (issue 32: pool -> odds costs no more than before the pictures) ---------

@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(-20, 60), st.fractions(0, 1).filter(bool), min_size=1, max_size=30),
       st.integers(-30, 70))
def test_the_shaded_part_of_columns_drawn_once_is_the_chance_above_the_target(weights, target):
    total = sum(weights.values())
    totals = {key: weights[key] / total for key in sorted(weights)}
    columns = charts.columns_of(totals)
    assert columns.chance_above(target) == sum((chance for key, chance in totals.items() if key > target), Fraction(0))
    assert charts.columns_of(totals) is columns  # the same distribution: its columns are not drawn again
    root = parsed(charts.totals_chart(totals, "Totals", target))
    assert f"{percent(columns.chance_above(target))} above {target}" in texts(root)


def test_the_tension_engines_kept_totals_are_one_distribution_per_pool():
    from ui.systems.tension import odds as tension_odds

    assert tension_odds.kept_distribution(5) is tension_odds.kept_distribution(5) == odds.tension_kept_totals(5)
