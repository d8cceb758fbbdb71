"""The board as a PNG for forum posts (Pillow): the same scene as the SVG."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from game_pages.worms.board_scene import HEIGHT, WIDTH, Circle, Line, Polygon, Rect, Text, scene

SCALE = 2


def _rgba(value: str) -> tuple[int, int, int, int] | None:
    if not value or value == "none":
        return None
    v = value.lstrip("#")
    r, g, b = int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16)
    a = int(v[6:8], 16) if len(v) == 8 else 255
    return (r, g, b, a)


@cache
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size * SCALE)
    except TypeError:  # Pillow without FreeType: the bitmap font
        return ImageFont.load_default()


def board_png(position: dict[str, Any]) -> bytes:
    """PNG bytes of the board as the public sees it (the caller passes a public view)."""
    image = Image.new("RGBA", (WIDTH * SCALE, HEIGHT * SCALE), (255, 255, 255, 255))
    draw = ImageDraw.Draw(image, "RGBA")  # blends translucent fills onto what is below
    s = SCALE
    for shape in scene(position):
        if isinstance(shape, Rect):
            fill = _rgba(shape.fill)
            outline = _rgba(shape.stroke) if shape.stroke_width else None
            draw.rectangle((shape.x * s, shape.y * s, (shape.x + shape.w) * s - 1, (shape.y + shape.h) * s - 1),
                           fill=fill, outline=outline, width=max(1, int(shape.stroke_width * s)) if outline else 0)
        elif isinstance(shape, Circle):
            box = ((shape.cx - shape.r) * s, (shape.cy - shape.r) * s, (shape.cx + shape.r) * s, (shape.cy + shape.r) * s)
            outline = _rgba(shape.stroke) if shape.stroke_width else None
            draw.ellipse(box, fill=_rgba(shape.fill), outline=outline,
                         width=max(1, int(shape.stroke_width * s)) if outline else 0)
        elif isinstance(shape, Polygon):
            draw.polygon([(x * s, y * s) for x, y in shape.points], fill=_rgba(shape.fill))
        elif isinstance(shape, Line):
            draw.line((shape.x1 * s, shape.y1 * s, shape.x2 * s, shape.y2 * s), fill=_rgba(shape.stroke),
                      width=int(shape.width * s))
        elif isinstance(shape, Text):
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[shape.anchor]
            text = shape.text.replace("▶", ">")
            draw.text((shape.x * s, shape.y * s), text, fill=_rgba(shape.fill), font=_font(shape.size),
                      anchor=anchor, stroke_width=1 if shape.bold else 0, stroke_fill=_rgba(shape.fill))
    image = image.convert("RGB")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
