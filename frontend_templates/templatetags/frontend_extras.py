"""Template filters of the pages."""

from __future__ import annotations

from django import template

from frontend_templates.generic_text import readable_time as _readable_time

register = template.Library()


@register.filter
def readable_time(value: str | None) -> str:
    """An ISO moment as "Wed 2 Dec 2026, 16:05 UTC" (the page then shows the reader's zone)."""
    return _readable_time(value)
