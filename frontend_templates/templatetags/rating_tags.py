"""The rating beside a player's name (lobby, game page): ``{{ ratings|beside:seat }}``,
where ``ratings`` is ``ratings_selectors.ratings_beside`` of the page's games."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from referee.ratings_selectors import rating_label

register = template.Library()


@register.filter
def beside(ratings: dict[int, dict[str, Any]] | None, seat: Any) -> str:
    """`` <span class="rating">1042?</span>`` (the "?" while provisional), or nothing for a
    player not rated on this game's ladder yet."""
    label = rating_label((ratings or {}).get(getattr(seat, "pk", None)))
    if not label:
        return ""
    title = "rating, provisional until more rated games" if label.endswith("?") else "rating"
    return format_html(' <span class="rating" title="{}">{}</span>', title, label)
