"""The board as a PNG for forum posts (Pillow): the same scene as the SVG."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from game_pages.png import SCALE, box, circle_box, png_bytes, rgba, scaled, text
from game_pages.worms.board_scene import HEIGHT, WIDTH, Circle, Line, Polygon, Rect, Text, scene


def board_png(position: dict[str, Any]) -> bytes:
    """PNG bytes of the board as the public sees it (the caller passes a public view)."""
    image = Image.new("RGBA", (WIDTH * SCALE, HEIGHT * SCALE), (255, 255, 255, 255))
    draw = ImageDraw.Draw(image, "RGBA")  # blends translucent fills onto what is below
    s = SCALE
    for shape in scene(position):
        if isinstance(shape, Rect):
            fill = rgba(shape.fill)
            outline = rgba(shape.stroke) if shape.stroke_width else None
            draw.rectangle(box(shape.x, shape.y, shape.x + shape.w, shape.y + shape.h),
                           fill=fill, outline=outline, width=max(1, int(shape.stroke_width * s)) if outline else 0)
        elif isinstance(shape, Circle):
            outline = rgba(shape.stroke) if shape.stroke_width else None
            draw.ellipse(circle_box(shape.cx, shape.cy, shape.r), fill=rgba(shape.fill), outline=outline,
                         width=max(1, int(shape.stroke_width * s)) if outline else 0)
        elif isinstance(shape, Polygon):
            draw.polygon(scaled(shape.points), fill=rgba(shape.fill))
        elif isinstance(shape, Line):
            draw.line((shape.x1 * s, shape.y1 * s, shape.x2 * s, shape.y2 * s), fill=rgba(shape.stroke),
                      width=int(shape.width * s))
        elif isinstance(shape, Text):
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[shape.anchor]
            text(draw, shape.x, shape.y, shape.text.replace("▶", ">"), size=shape.size, fill=rgba(shape.fill),
                 anchor=anchor, bold=shape.bold)
    return png_bytes(image)
