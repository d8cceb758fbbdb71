"""The board as inline SVG (server-side): the scene of ``board_scene`` as markup, with a
``<title>`` on every square and object so a screen reader can read the board."""

from __future__ import annotations

from typing import Any

from django.utils.html import escape

from game_pages.worms.board_scene import (
    CELL,
    COLUMNS,
    HEIGHT,
    MARGIN,
    WIDTH,
    Circle,
    Highlights,
    Line,
    Polygon,
    Rect,
    Shape,
    Text,
    scene,
)


def _colour(value: str) -> str:
    """``#rrggbbaa`` -> fill and opacity attributes SVG 1.1 viewers understand."""
    if value.startswith("#") and len(value) == 9:
        alpha = int(value[7:9], 16) / 255
        return f'"{value[:7]}" fill-opacity="{alpha:.2f}"'
    return f'"{value}"'


def _stroke(value: str, width: float, dash: bool) -> str:
    if not value or not width:
        return ""
    colour = value
    extra = ""
    if value.startswith("#") and len(value) == 9:
        colour = value[:7]
        extra = f' stroke-opacity="{int(value[7:9], 16) / 255:.2f}"'
    dashes = ' stroke-dasharray="4 3"' if dash else ""
    return f' stroke="{colour}" stroke-width="{width:g}"{extra}{dashes}'


def _title(label: str) -> str:
    return f"<title>{escape(label)}</title>" if label else ""


def _shape(s: Shape) -> str:
    if isinstance(s, Rect):
        data = "".join(f' data-{k}="{escape(v)}"' for k, v in s.data.items())
        css = f' class="{s.css}"' if s.css else ""
        body = _title(s.label)
        fill = '"none"' if s.fill == "none" else _colour(s.fill)
        tag = f'<rect x="{s.x:g}" y="{s.y:g}" width="{s.w:g}" height="{s.h:g}" fill={fill}' \
              f'{_stroke(s.stroke, s.stroke_width, s.dash)}{css}{data}'
        return f"{tag}>{body}</rect>" if body else f"{tag}/>"
    if isinstance(s, Circle):
        fill = '"none"' if s.fill == "none" else _colour(s.fill)
        tag = f'<circle cx="{s.cx:g}" cy="{s.cy:g}" r="{s.r:g}" fill={fill}{_stroke(s.stroke, s.stroke_width, s.dash)}'
        return f"{tag}>{_title(s.label)}</circle>" if s.label else f"{tag}/>"
    if isinstance(s, Text):
        weight = ' font-weight="bold"' if s.bold else ""
        return (f'<text x="{s.x:g}" y="{s.y:g}" font-size="{s.size}" text-anchor="{s.anchor}"'
                f' fill={_colour(s.fill)}{weight} aria-hidden="true">{escape(s.text)}</text>')
    if isinstance(s, Line):
        return f'<line x1="{s.x1:g}" y1="{s.y1:g}" x2="{s.x2:g}" y2="{s.y2:g}" stroke="{s.stroke}" stroke-width="{s.width:g}"/>'
    if isinstance(s, Polygon):
        pts = " ".join(f"{x:g},{y:g}" for x, y in s.points)
        tag = f'<polygon points="{pts}" fill={_colour(s.fill)}'
        return f"{tag}>{_title(s.label)}</polygon>" if s.label else f"{tag}/>"
    raise TypeError(f"unknown shape {s!r}")


def _focus(square: tuple[int, int] | None) -> str:
    if square is None:
        return ""
    return (f' data-focus-x="{MARGIN + square[0] * CELL + CELL / 2:g}" data-focus-y="{MARGIN + square[1] * CELL + CELL / 2:g}"'
            f' data-width="{WIDTH}"')


def board_svg(position: dict[str, Any], highlights: Highlights | None = None, *, title: str = "The board",
              described_by: str = "", focus: tuple[int, int] | None = None) -> str:
    """``described_by``: the id of the board in words on the page (the picture's long text);
    ``focus``: the square a phone's panned board is centred on (the worm at the controls)."""
    body = "\n".join(_shape(s) for s in scene(position, highlights))
    marks = highlights.marks if highlights else None
    desc = " ".join(marks.words) if marks else ""
    described = f' aria-describedby="{escape(described_by)}"' if described_by else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="board-title board-desc"{described} class="board" font-family="sans-serif" '
        f'data-margin="{MARGIN}" data-cell="{CELL}" data-columns="{"".join(COLUMNS)}" data-rows="{len(COLUMNS)}"'
        f'{_focus(focus)}>'
        f'<title id="board-title">{escape(title)}</title>'
        f'<desc id="board-desc">{escape("Just happened: " + desc if desc else "")}</desc>\n{body}\n</svg>'
    )
