"""Small SVG pictures of numbers read at a glance: chances as bars on one scale, a distribution
of totals as columns, a level (Tension) over a session as a line.

Each picture is one `<svg role="img">` whose `aria-label` says in words what it shows, so a
screen reader hears the numbers the eye reads. It is drawn on a 300-unit-wide viewBox and
scales to its container (static/css/charts.css sets width 100 % and a largest width), so it
fits a 320 px phone and reads the same on a laptop. Colours come from classes (the themes'
custom properties); no style attribute (CSP style-src 'self'). Text people wrote is escaped,
and a name isolated by `rules.words.isolate` is drawn as an isolating `<tspan>` (SVG text holds
no `<bdi>`). Shapes of one kind share one path, keeping the markup small.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from html import escape

from ui.kit.html import FSI, PDI, Markup, flat, h, isolated
from ui.kit.percent import percent

WIDTH = 300  # viewBox units; text at 14 units reads as about 13-17 px on a phone
LABEL_CHARACTERS = 34  # a bar's label over the full width, shortened past this (all of it is in the aria-label)
MOST_POINTS = 200  # a longer line keeps each stretch's lowest and highest value
EMPTY = Markup("")


def number(value: float) -> str:
    """A coordinate with at most one decimal: "12", "12.5"."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


def svg_text(value) -> Markup:
    """Escaped text for an SVG <text>; isolated names become isolating <tspan>s."""
    if isinstance(value, Markup):
        return value
    return Markup(isolated(escape(str(value), quote=False), '<tspan class="isolate">', "</tspan>"))


def shortened(value: str, most: int) -> str:
    """At most `most` visible characters (isolation marks don't count), the cut marked with "…"."""
    if len(value.replace(FSI, "").replace(PDI, "")) <= most:
        return value
    kept, seen = [], 0
    for character in value:
        if character not in (FSI, PDI):
            if seen == most - 1:
                break
            seen += 1
        kept.append(character)
    return "".join(kept) + "…"


def picture(label: str, height: float, *parts, kind: str) -> Markup:
    return h("svg", *parts, viewBox=f"0 0 {WIDTH} {number(height)}", role="img", aria_label=label,
             class_=f"chart {kind}-chart", focusable="false")


def rectangles(boxes) -> str:
    """One path drawing every (x, y, width, height) box."""
    return "".join(f"M{number(x)} {number(y)}h{number(w)}v{number(h_)}h{number(-w)}z" for x, y, w, h_ in boxes)


def shapes(css: str, boxes) -> Markup:
    return path(css, rectangles(boxes))


def path(css: str, drawn: str) -> Markup:
    """One <path> (its coordinates are numbers: nothing in them to escape)."""
    return Markup(f'<path d="{drawn}" class="{css}"></path>') if drawn else EMPTY


def label_text(content: Markup | str, x, y, css: str) -> str:
    """One <text> of the picture; `content` is escaped unless it is Markup (svg_text's)."""
    return f'<text x="{x}" y="{y}" class="{css}">{svg_text(content)}</text>'


# --- Chances as bars ---------------------------------------------------------------------------

BAR_ROW = 40
BAR_TRACK = 248  # the bar's full length; its percentage sits after it, so no label can run into one


def chance_bars(rows: Sequence[tuple[str, Fraction]], label: str) -> Markup:
    """One bar per (label, chance), all on the same 0-100 % scale, each with its percentage.
    `label` says what the chances are of ("Player's chance of success with 5 dice"); the
    picture's text equivalent is it followed by every row ("… 5 dice. GM keeps 2: 63 %; …").
    Drawn with plain strings, not `h`: it is redrawn as a pool steps (issue 32's bench)."""
    if not rows:
        return EMPTY
    shown = [(name, percent(chance)) for name, chance in rows]
    words = "; ".join(f"{flat(name)}: {value}" for name, value in shown)
    words = f"{flat(label)}. {words}" if label else words
    texts, tracks, bars = [], [], []
    for index, ((name, value), (_, chance)) in enumerate(zip(shown, rows)):
        top = index * BAR_ROW
        texts.append(label_text(shortened(str(name), LABEL_CHARACTERS), 0, top + 15, "chart-label"))
        texts.append(label_text(value, WIDTH, top + 33, "chart-value"))
        tracks.append(f"M0 {top + 22}h{BAR_TRACK}v12h-{BAR_TRACK}z")
        if chance > 0:  # a possible outcome never looks impossible
            length = number(max(1.5, float(chance) * BAR_TRACK))
            bars.append(f"M0 {top + 22}h{length}v12h-{length}z")
    return picture(words, len(rows) * BAR_ROW, path("chart-track", "".join(tracks)),
                   path("chart-bar", "".join(bars)), Markup("".join(texts)), kind="bars")


# --- A distribution of totals as columns --------------------------------------------------------

COLUMNS_TOP, COLUMNS_HEIGHT = 22, 70
WIDEST_COLUMN = 30


def most_likely(totals: Mapping[int, Fraction]) -> tuple[int, Fraction]:
    best = max(totals.values())
    return next(total for total, chance in totals.items() if chance == best), best


class Columns:
    """What a distribution's picture needs whatever the target: each column's box, drawn once, and
    the chance above each total. A pool stepping up and down redraws no column (issue 32's bench:
    drawing them again per tap cost more than the morph)."""

    def __init__(self, totals: Mapping[int, Fraction]):
        self.low, self.high = min(totals), max(totals)
        self.count = self.high - self.low + 1
        self.slot = min(WIDEST_COLUMN, WIDTH / self.count)
        self.left = (WIDTH - self.slot * self.count) / 2
        gap = min(2, self.slot * 0.15)
        self.peak_total, self.peak = most_likely(totals)
        self.peak_words = percent(self.peak)
        self.boxes = {}  # total -> its column as path data
        for total in range(self.low, self.high + 1):
            chance = totals.get(total, 0)
            if chance:
                tall = max(1, float(chance / self.peak) * COLUMNS_HEIGHT)
                self.boxes[total] = rectangles([(self.left + (total - self.low) * self.slot + gap / 2,
                                                 COLUMNS_TOP + COLUMNS_HEIGHT - tall, self.slot - gap, tall)])
        self.words = {}  # total -> the chance above it in words (above_words)
        self.above = {}  # total -> the chance of a total above it
        running = Fraction(0)
        for total in range(self.high, self.low - 2, -1):
            self.above[total] = running
            running += totals.get(total, 0)

    def chance_above(self, target: int) -> Fraction:
        return self.above[min(max(target, self.low - 1), self.high)]

    def above_words(self, target: int) -> str:
        """The chance above `target` as a percentage, worked out once per total."""
        key = min(max(target, self.low - 1), self.high)
        if key not in self.words:
            self.words[key] = percent(self.above[key])
        return self.words[key]

    def centre(self, total: int) -> float:
        """Where a total's tick goes: under its column, kept in the picture (a tick is up to 3 digits)."""
        return min(max(self.left + (min(max(total, self.low), self.high) - self.low + 0.5) * self.slot, 12),
                   WIDTH - 12)


_COLUMNS: dict[int, tuple[Mapping, Columns]] = {}  # id of a distribution -> (it, its columns)


def columns_of(totals: Mapping[int, Fraction]) -> Columns:
    """The columns of `totals`, drawn once per distribution object (rules.odds hands the same one for
    the same dice, so a pool stepping back draws nothing again)."""
    kept = _COLUMNS.get(id(totals))
    if kept is not None and kept[0] is totals:
        return kept[1]
    if len(_COLUMNS) >= 64:
        _COLUMNS.clear()
    columns = Columns(totals)
    _COLUMNS[id(totals)] = (totals, columns)
    return columns


def totals_chart(totals: Mapping[int, Fraction], label: str, target: int | None = None,
                 winning: str | None = None) -> Markup:
    """Columns for the chance of each total (ascending), the tallest full height. With a `target`
    (the total that must be beaten), a line marks it and the columns above it are shaded, their
    sum written as "58 % above 8" (`winning` words the part instead: "beat the GM's 8")."""
    if not totals:
        return EMPTY
    columns = columns_of(totals)
    low, high = columns.low, columns.high
    wins = "".join(box for total, box in columns.boxes.items() if target is not None and total > target)
    others = "".join(box for total, box in columns.boxes.items() if target is None or total <= target)
    ticks = {low: "chart-tick", high: "chart-tick"}
    parts = [path("chart-lose", others), path("chart-win", wins)]
    if columns.count == 1:
        words = f"{flat(label)}: always {low}"
    else:
        words = f"{flat(label)}: {low} to {high}, most likely {columns.peak_total} ({columns.peak_words})"
    if target is not None:
        chance = columns.above_words(target)
        described = flat(winning) if winning else f"above {target}"
        words += f"; {chance} {described}"
        edge = columns.left + (min(max(target, low - 1), high) - low + 1) * columns.slot
        parts.append(path("chart-target", f"M{number(edge)} {COLUMNS_TOP - 4}V{COLUMNS_TOP + COLUMNS_HEIGHT + 4}"))
        parts.append(Markup(label_text(f"{chance} {winning or f'above {target}'}", WIDTH, 14,
                                       "chart-value")))
        if low <= target <= high:
            ticks = {total: css for total, css in ticks.items()
                     if abs(columns.centre(total) - columns.centre(target)) >= 26}
            ticks[target] = "chart-tick chart-tick-target"
    parts += [Markup(label_text(str(total), number(columns.centre(total)), COLUMNS_TOP + COLUMNS_HEIGHT + 18, css))
              for total, css in sorted(ticks.items())]
    return picture(words, COLUMNS_TOP + COLUMNS_HEIGHT + 22, *parts, kind="totals")


# --- A level over a session as a line -----------------------------------------------------------

LINE_LEFT, LINE_TOP, LINE_HEIGHT = 30, 8, 84  # room on the left for "100"


def thinned(values: Sequence[int]) -> list[tuple[int, int]]:
    """(position, value) for the line: every value, or past MOST_POINTS each stretch's lowest and
    highest in their order, so no peak is smoothed away."""
    if len(values) <= MOST_POINTS:
        return list(enumerate(values))
    stretch = -(-len(values) // (MOST_POINTS // 2))
    points = []
    for start in range(0, len(values), stretch):
        part = range(start, min(start + stretch, len(values)))
        lowest = min(part, key=values.__getitem__)
        highest = max(part, key=values.__getitem__)
        points += sorted({lowest, highest})
    return [(position, values[position]) for position in points]


def climbs(values: Sequence[int], every: int) -> list[tuple[int, int]]:
    """(position, multiple) for each multiple of `every` the level climbed to from below it."""
    return [(position, multiple) for position in range(1, len(values))
            for multiple in range((max(values[position - 1], 0) // every + 1) * every, values[position] + 1, every)
            if multiple > 0]


def listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def level_line(values: Sequence[int], label: str, every: int = 10) -> Markup:
    """The values in order as a line over a 0-based scale, the multiples of `every` marked by
    dashed lines and a dot where the level climbed to one ("Tension over 14 conflicts: from 3
    to 11, highest 21; it climbed to 10 and 20")."""
    if not values:
        return EMPTY
    peak = max(values)
    top = max(every, (max(peak, 0) // every + 1) * every)
    span = WIDTH - LINE_LEFT - 4
    step = span / (len(values) - 1) if len(values) > 1 else 0

    def x(position: int) -> float:
        return LINE_LEFT + (position * step if len(values) > 1 else span / 2)

    def y(value: int) -> float:
        return LINE_TOP + LINE_HEIGHT * (1 - max(value, 0) / top)

    grid = "".join(f"M{LINE_LEFT} {number(y(level))}H{WIDTH}" for level in range(every, top + 1, every))
    parts = [h("path", d=f"M{LINE_LEFT} {number(y(0))}H{WIDTH}", class_="chart-axis"),
             h("path", d=grid, class_="chart-grid")]
    labelled = every * -(-top // (every * 5))  # at most five numbers up the side, so none overlap
    parts += [h("text", str(level), x="0", y=number(y(level) + 5), class_="chart-tick chart-tick-start")
              for level in range(labelled, top + 1, labelled)]
    points = " ".join(f"{number(x(position))},{number(y(value))}" for position, value in thinned(values))
    parts.append(h("polyline", points=points, class_="chart-line") if len(values) > 1 else
                 h("circle", cx=number(x(0)), cy=number(y(values[0])), r="3", class_="chart-dot"))
    reached = climbs(values, every)
    # A dot where the line crosses the multiple it climbed to; dots closer than a dot's width are drawn once.
    dots = {}
    for position, multiple in reached:
        before, after = max(values[position - 1], 0), values[position]
        across = x(position - 1) + step * (multiple - before) / (after - before)
        dots.setdefault(round(across / 7), (across, y(multiple)))
    if dots:
        circles = (f"M{number(left - 3.5)} {number(height)}a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0 -7 0"
                   for left, height in dots.values())
        parts.append(h("path", d="".join(circles), class_="chart-mark"))
    words = f"{flat(label)}: from {values[0]} to {values[-1]}, highest {peak}"
    if reached:
        multiples = [str(multiple) for _, multiple in reached]
        many = f"a multiple of {every} {len(multiples)} times"
        words += f"; it climbed to {listed(multiples) if len(multiples) <= 6 else many}"
    return picture(words, LINE_TOP + LINE_HEIGHT + 6, *parts, kind="line")
