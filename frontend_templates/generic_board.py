"""The fallback board: a ruleset's ``view()`` dict drawn plainly but readably, as nested
definition lists and tables (not a dump). A list of rows of plain values, or a list of
objects with ``x`` and ``y``, is drawn as a grid. Every text is escaped."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

#: A grid larger than this is listed instead (a table that wide helps nobody).
MAX_GRID = 40
_SCALARS = (str, int, float, bool, type(None))


def words(key: Any) -> str:
    """``turn_total`` -> "turn total"; ``TurnStarted`` -> "turn started"."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(key)).replace("_", " ")
    return " ".join(text.split()).lower()


def scalar(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def render(position: Mapping[str, Any] | None, *, title: str = "The position") -> SafeString | None:
    if not position:
        return None
    return format_html('<div class="generic-board" role="group" aria-label="{}">{}</div>', title, _value(position, 0))


def _value(value: Any, depth: int) -> SafeString:
    if isinstance(value, Mapping):
        return _mapping(value, depth)
    if isinstance(value, (list, tuple)):
        return _sequence(list(value), depth)
    return mark_safe(escape(scalar(value)))  # noqa: S308 - escaped just here


def _mapping(value: Mapping[str, Any], depth: int) -> SafeString:
    if not value:
        return mark_safe('<span class="muted">none</span>')
    items = "".join(
        format_html("<dt>{}</dt><dd>{}</dd>", words(k), _value(v, depth + 1)) for k, v in value.items()
    )
    return format_html('<dl class="view">{}</dl>', mark_safe(items))  # noqa: S308 - built with format_html


def _sequence(items: list[Any], depth: int) -> SafeString:
    if not items:
        return mark_safe('<span class="muted">none</span>')
    grid = _rows_grid(items) or _xy_grid(items)
    if grid is not None:
        return grid
    if all(isinstance(i, _SCALARS) for i in items):
        return mark_safe(escape(", ".join(scalar(i) for i in items)))  # noqa: S308 - escaped just here
    if all(isinstance(i, Mapping) for i in items) and all(
        all(isinstance(v, _SCALARS) for v in i.values()) for i in items
    ):
        return _records(items)
    rows = "".join(format_html("<li>{}</li>", _value(i, depth + 1)) for i in items)
    return format_html("<ol>{}</ol>", mark_safe(rows))  # noqa: S308 - built with format_html


def _records(items: list[Mapping[str, Any]]) -> SafeString:
    """Objects of plain values: one row each, one column per key."""
    keys: list[str] = []
    for item in items:
        keys += [k for k in item if k not in keys]
    head = "".join(format_html('<th scope="col">{}</th>', words(k)) for k in keys)
    body = "".join(
        "<tr>" + "".join(format_html("<td>{}</td>", scalar(item.get(k))) for k in keys) + "</tr>" for item in items
    )
    return mark_safe(f'<table class="view"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')  # noqa: S308 - parts escaped


def _rows_grid(items: list[Any]) -> SafeString | None:
    """A list of rows of plain values (a board as a matrix)."""
    if len(items) < 2 or len(items) > MAX_GRID:
        return None
    if not all(isinstance(r, (list, tuple)) and r and len(r) <= MAX_GRID for r in items):
        return None
    if not all(isinstance(c, _SCALARS) for r in items for c in r):
        return None
    width = max(len(r) for r in items)
    head = '<th scope="col"></th>' + "".join(format_html('<th scope="col">{}</th>', x) for x in range(width))
    body = "".join(
        format_html('<tr><th scope="row">{}</th>', y)
        + "".join(format_html("<td>{}</td>", scalar(c) if c not in (None, "") else "") for c in r)
        + "</tr>"
        for y, r in enumerate(items)
    )
    return mark_safe(f'<table class="grid"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')  # noqa: S308 - parts escaped


def _xy_grid(items: list[Any]) -> SafeString | None:
    """Objects that stand on squares (``x`` and ``y``): drawn where they stand, each square
    listing what is on it."""
    if not all(isinstance(i, Mapping) and isinstance(i.get("x"), int) and isinstance(i.get("y"), int) for i in items):
        return None
    xs, ys = [i["x"] for i in items], [i["y"] for i in items]
    if min(xs) < 0 or min(ys) < 0 or max(xs) >= MAX_GRID or max(ys) >= MAX_GRID:
        return None
    cells: dict[tuple[int, int], list[str]] = {}
    for item in items:
        label = ", ".join(f"{words(k)} {scalar(v)}" for k, v in item.items()
                          if k not in ("x", "y") and isinstance(v, _SCALARS))
        cells.setdefault((item["x"], item["y"]), []).append(label or "•")
    width, height = max(xs) + 1, max(ys) + 1
    head = '<th scope="col"></th>' + "".join(format_html('<th scope="col">{}</th>', x) for x in range(width))
    body = "".join(
        format_html('<tr><th scope="row">{}</th>', y)
        + "".join(format_html("<td>{}</td>", "; ".join(cells.get((x, y), []))) for x in range(width))
        + "</tr>"
        for y in range(height)
    )
    return mark_safe(f'<table class="grid"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')  # noqa: S308 - parts escaped
