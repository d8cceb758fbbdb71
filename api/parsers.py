"""The JSON parser of the API: refuses, as 400 problem+json, what the standard parser lets
through to fail later as a server error: nesting deep enough to exhaust the stack (and far
beyond what any order needs), and lone UTF-16 surrogates (``"\\ud800"``), which are valid
JSON escapes but no text: they cannot be stored, hashed or shown."""

from __future__ import annotations

import json
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: No order, setting or sign-up needs more: Worms' deepest body (a whole turn) has 5 levels.
MAX_DEPTH = 32


class SafeJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested more than {MAX_DEPTH} levels deep.") from None
        check_json(data)
        return data


def check_json(data: Any) -> None:
    """Raise ParseError for nesting beyond MAX_DEPTH or a lone surrogate anywhere (keys too).
    Iterative, so the check itself cannot run out of stack."""
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise ParseError(f"JSON parse error - nested more than {MAX_DEPTH} levels deep.")
            if isinstance(value, dict):
                for key, item in value.items():
                    _check_text(key)
                    pending.append((item, depth + 1))
            else:
                pending.extend((item, depth + 1) for item in value)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ParseError("JSON parse error - a string holds a lone UTF-16 surrogate (like \\ud800), "
                         "which is not text.") from None


def loads(raw: bytes | str) -> Any:
    """json.loads with the same checks, for bodies read outside DRF."""
    try:
        data = json.loads(raw)
    except RecursionError:
        raise ParseError(f"JSON parse error - nested more than {MAX_DEPTH} levels deep.") from None
    check_json(data)
    return data
