"""The order list a player is writing (a draft): the notation's text (``R1>N,R1*e7``) kept in
the page's query string between the plain forms' posts, so the builder works without a
script. The referee's checks come only when the list is sent (``SubmitOrders``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game_pages.lggwg.narrate import order_words
from games.lggwg.orders import format_order, parse_order
from games.lggwg.state import Order

MAX_DRAFT = 60  # the referee refuses lists over 30; this only bounds the query string


def read(text: str) -> tuple[list[dict[str, Any]], str]:
    """The draft's items for the page, or an error sentence."""
    items: list[dict[str, Any]] = []
    parts = [p for p in (text or "").split(",") if p.strip()]
    if len(parts) > MAX_DRAFT:
        return [], f"A list has at most 30 orders; this one has {len(parts)}."
    for i, part in enumerate(parts):
        try:
            order = parse_order(part)
        except ValueError as exc:
            return [], f"Order {i + 1}: {exc}."
        items.append({"index": i, "text": format_order(order), "words": order_words(order.kind, order.unit,
                                                                                     order.target),
                      "kind": order.kind, "unit": order.unit, "target": order.target})
    return items, ""


def write(items: Sequence[Mapping[str, Any]]) -> str:
    return ",".join(str(i["text"]) for i in items)


def orders(items: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The ``SubmitOrders`` payload's list."""
    return [{"kind": str(i["kind"]), "unit": str(i["unit"]), "target": str(i["target"])} for i in items]


def new_order(kind: str, unit: str, direction: str, square: str) -> Order:
    """The order the "add" form describes (the target field that fits the kind)."""
    kind = kind.strip()
    unit = unit.strip().upper()
    if kind in ("move", "oppmove"):
        return Order(kind, unit, direction.strip().upper())
    if kind == "fire":
        return Order(kind, unit, square.strip().lower())
    if kind == "forfeit":
        return Order("forfeit")
    return Order(kind, unit)


def edit(text: str, action: str, index: int, order: Order | None = None) -> tuple[str, str]:
    """(the new draft, an error sentence or "") after add / up / down / remove / clear."""
    items, error = read(text)
    if error:
        return text, error
    texts = [str(i["text"]) for i in items]
    if action == "clear":
        return "", ""
    if action == "add" and order is not None:
        if order.kind not in ("hold", "forfeit") and not order.unit:
            return text, "Pick the unit the order is for."
        if order.kind in ("move", "oppmove") and not order.target:
            return text, "Pick a direction for the move."
        if order.kind == "fire" and not order.target:
            return text, "Name the square to fire at (click it on the map), e.g. e7."
        try:
            texts.append(format_order(order))
        except KeyError:
            return text, f"There is no order {order.kind!r}."
        return ",".join(texts), ""
    if not 0 <= index < len(texts):
        return text, "There is no such order in the list."
    if action == "remove":
        del texts[index]
    elif action == "up" and index > 0:
        texts[index - 1], texts[index] = texts[index], texts[index - 1]
    elif action == "down" and index < len(texts) - 1:
        texts[index + 1], texts[index] = texts[index], texts[index + 1]
    return ",".join(texts), ""
