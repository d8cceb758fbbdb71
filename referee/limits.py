"""Bounds on what a player may send as an order, checked before the referee sees it: no
order of any ruleset needs more, and nothing larger may reach the append-only log."""

from __future__ import annotations

from typing import Any

from games.base import RuleViolation

MAX_ORDER_BYTES = 16 * 1024  # the whole order as JSON
MAX_STRING = 500  # characters in any one string
MAX_LIST = 200  # items in any one list
MAX_DEPTH = 8  # objects and lists inside each other
MAX_TYPE = 80  # characters in an order's type


def order_check(command_type: str, payload: Any) -> None:
    """Refuse (``RuleViolation("order", ...)``, a plain sentence) an order over the bounds."""
    if not isinstance(command_type, str) or not 0 < len(command_type) <= MAX_TYPE:
        raise RuleViolation("order", f"An order's type is a name of 1 to {MAX_TYPE} characters.")
    size = _walk(payload, 1)
    if size > MAX_ORDER_BYTES:
        raise RuleViolation("order", f"An order may be at most {MAX_ORDER_BYTES // 1024} KB; this one is larger.")


def _walk(value: Any, depth: int) -> int:
    """Check the bounds and return about how many bytes the value takes as JSON."""
    if depth > MAX_DEPTH:
        raise RuleViolation("order", f"An order may nest lists and objects at most {MAX_DEPTH} deep.")
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise RuleViolation("order", f"A text in an order may be at most {MAX_STRING} characters long.")
        return len(value.encode("utf-8", "replace")) + 2
    if isinstance(value, dict):
        if len(value) > MAX_LIST:
            raise RuleViolation("order", f"An object in an order may have at most {MAX_LIST} fields.")
        return sum(_walk(str(k), depth + 1) + _walk(v, depth + 1) for k, v in value.items()) + 2
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_LIST:
            raise RuleViolation("order", f"A list in an order may have at most {MAX_LIST} items.")
        return sum(_walk(v, depth + 1) for v in value) + 2
    return len(str(value))
