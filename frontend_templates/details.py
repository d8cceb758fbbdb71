"""The moderators' replay details in words: an order's fields and what changed, with no
Python or JSON text, moments as times (the page shows them in the reader's zone), and an
empty value said as such."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from frontend_templates.generic_board import words
from frontend_templates.generic_text import readable_time

#: Below this an ``*_ms`` number is a duration, not a moment (1 Jan 2001 in epoch ms).
EPOCH_MS_FROM = 978_307_200_000
#: Field names said differently from their words ("at_ms" is when the order was given).
LABELS = {"at_ms": "time", "at": "time"}
EMPTY = "not given"
IDENTIFIER = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)+$")


@dataclass(frozen=True)
class Detail:
    text: str
    #: An ISO moment when the value is one (the template shows it as a local time).
    iso: str = ""


def label(path: str) -> str:
    """``deadline.at_ms`` -> "deadline › time"; ``teams[0].hp`` -> "teams 1 › hp"."""
    parts = []
    for part in str(path).replace("/", ".").split("."):
        name, _, index = part.partition("[")
        name = LABELS.get(name, name[:-3] if name.endswith("_ms") else name)
        text = words(name) if name else ""
        if index:
            text = f"{text} {int(index.rstrip(']')) + 1}".strip() if index.rstrip("]").isdigit() else text
        if text:
            parts.append(text)
    return " › ".join(parts)


def _is_moment(path: str) -> bool:
    last = str(path).replace("/", ".").split(".")[-1].split("[")[0].replace(" ", "_")
    return last.endswith("_ms") or last == "at"


def _text(value: Any) -> str:
    if value is None or value == "":
        return EMPTY
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{label(str(k))} {_text(v)}" for k, v in value.items()) if value else "none"
    if isinstance(value, str) and IDENTIFIER.match(value):
        return value.replace("_", " ")  # an item or kind id: "mad_cow" reads "mad cow"
    return str(value)


def detail_value(path: str, value: Any) -> Detail:
    """One value of a field or of a change, in words."""
    if _is_moment(path) and isinstance(value, int) and not isinstance(value, bool) and value >= EPOCH_MS_FROM:
        when = dt.datetime.fromtimestamp(value / 1000, tz=dt.UTC)
        return Detail(readable_time(when.isoformat()), when.isoformat())
    if _is_moment(path) and isinstance(value, str) and value:
        return Detail(readable_time(value), value)
    return Detail(_text(value))


def fields(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": label(k), "value": detail_value(k, v)} for k, v in payload.items()]


def changes(diff: list[dict[str, Any]], limit: int = 60) -> list[dict[str, Any]]:
    return [{"path": label(d["path"]), "before": detail_value(d["path"], d["before"]),
             "after": detail_value(d["path"], d["after"])} for d in diff[:limit]]
