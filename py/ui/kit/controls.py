"""The form controls every screen uses: segmented choices, − value + steppers, labelled selects
and text fields.

Buttons get ids when given a group or field id, so keyboard focus stays on the
button that was tapped after its region is re-rendered.
"""
from __future__ import annotations

from ui.kit.html import Markup, classes, h


def data_fields(data: dict) -> dict:
    """`side="gm"` -> `data_side="gm"` (a data-side attribute)."""
    return {f"data_{key}": value for key, value in data.items()}


def segmented(label: str, options, current: str, action: str, group_id: str | None = None, **data) -> Markup:
    """One button per (value, text); the chosen one is pressed."""
    return h("div", *(h("button", text, type="button", class_="segment",
                        id=f"{group_id}-{value}" if group_id else None, data_action=action, data_value=value,
                        aria_pressed="true" if value == current else "false", **data_fields(data))
                      for value, text in options),
             class_="segmented", role="group", aria_label=label)


def stepper(label: str, value: int, action: str, low: int, high: int | None, field_id: str,
            shown: str | None = None, **data) -> Markup:
    """− value +, the buttons sending data-step -1 and 1; `shown` replaces the number (e.g. "+2")."""
    return h("div",
             h("span", label, class_="stepper-label", id=f"{field_id}-label"),
             h("button", "−", type="button", class_="button button-round", id=f"{field_id}-less",
               data_action=action, data_step="-1", aria_label=f"{label}: one less", disabled=value <= low,
               **data_fields(data)),
             h("output", str(value) if shown is None else shown, class_="stepper-value", id=field_id,
               aria_labelledby=f"{field_id}-label"),
             h("button", "+", type="button", class_="button button-round", id=f"{field_id}-more",
               data_action=action, data_step="1", aria_label=f"{label}: one more",
               disabled=high is not None and value >= high, **data_fields(data)),
             class_="stepper")


def select(label: str, options, current: str, action: str, field_id: str, **data) -> Markup:
    # An explicit label (not wrapping the select), so the name is the label alone, not "Kind Gear".
    return h("div", h("label", label, class_="field-label", for_=field_id),
             h("select", *(h("option", text, value=value, selected=value == current) for value, text in options),
               id=field_id, class_="field-select", data_action=action, **data_fields(data)),
             class_="field")


def text_input(label: str, field_id: str, value: str, action: str, placeholder: str = "",
               input_type: str = "text", inputmode: str | None = None, hint: str | None = None,
               maxlength: int | None = None, low: int | None = None, high: int | None = None, **data) -> Markup:
    """A labelled field; a hint sits after it (aria-describedby), outside the label's name.
    `low` and `high` bound a number field."""
    return h("div",
             h("label", label, class_="field-label", for_=field_id),
             h("input", type=input_type, id=field_id, value=value, placeholder=placeholder or None,
               inputmode=inputmode, autocomplete="off", maxlength=None if maxlength is None else str(maxlength),
               min=None if low is None else str(low), max=None if high is None else str(high),
               data_action=action, class_=classes("field-input", field_number=input_type == "number"),
               aria_describedby=f"{field_id}-hint" if hint else None, **data_fields(data)),
             h("span", hint, class_="hint hint-small", id=f"{field_id}-hint") if hint else Markup(""),
             class_="field")


def result_bar(summary: Markup, action: Markup, bar_id: str) -> Markup:
    """The result as it stands and its main action, kept above the navigation while the page
    scrolls (its region is sticky, static/css/base.css), so neither needs scrolling to reach."""
    return h("section", h("div", summary, class_="result-bar-summary"), action,
             class_="result-bar", id=bar_id, aria_label="Result and next step", data_testid="result-bar")


def settled_note(reason: str) -> Markup:
    """One line saying why a side is shown read-only."""
    return h("p", reason, class_="settled-note", data_testid="settled")


def button(label: str, action: str, primary: bool = False, danger: bool = False, wide: bool = False,
           **attrs) -> Markup:
    return h("button", label, type="button", data_action=action, **attrs,
             class_=classes("button", button_primary=primary, button_danger=danger, button_wide=wide))


def scanner(name: str, title: str, video_id: str, hint: str, cancel: str) -> Markup:
    """The camera's picture while scanning a code, with Cancel (action and id `cancel`); `name` is the
    card's test id and its title's id stem. Drawn in a region of its own: the camera stops once this
    <video> leaves the page (static/scan.js)."""
    return h("section",
             h("h2", title, class_="screen-title", id=f"{name}-title"),
             h("video", id=video_id, class_="scanner-video", muted=True, autoplay=True, playsinline=True,
               aria_label="The camera's picture"),
             h("p", hint, class_="hint"),
             button("Cancel", cancel, wide=True, id=cancel),
             class_="card scanner", aria_labelledby=f"{name}-title", data_testid=name)
