"""The rules page's clauses (``rulebook.json``): every clause the Worms case catalogue
(docs/cases/worms.md) quotes, grouped by the section it quotes, with the section titles of
the catalogue. Written by the catalogue's generator (``python
tests/unit/games/worms/worms_casebook.py``) whenever it writes the catalogue; a test keeps the
two in step, so the page never quotes less than the cases do."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

JSON = Path(__file__).with_name("rulebook.json")
_SECTION = re.compile(r"## (§\d+) (.*)$")
_QUOTE = re.compile(r"> (§\d+)[^:]*: (.*)$")


def extract(catalogue: str) -> list[dict[str, Any]]:
    """Sections in order of their number: ``clause`` (§7), ``title`` (the catalogue's
    headings for it, joined by " · "), ``quotes`` (each quoted clause once, in the order the
    catalogue first quotes it; the surrounding quotation marks dropped)."""
    titles: dict[str, str] = {}
    quotes: dict[str, list[str]] = {}
    for line in catalogue.splitlines():
        if heading := _SECTION.match(line):
            clause, title = heading.groups()
            titles[clause] = f"{titles[clause]} · {title}" if clause in titles else title
        elif quoted := _QUOTE.match(line):
            clause, text = quoted.groups()
            if len(text) > 1 and text.startswith('"') and text.endswith('"'):
                text = text[1:-1]
            seen = quotes.setdefault(clause, [])
            if text not in seen:
                seen.append(text)
    return [{"clause": c, "title": titles[c], "quotes": quotes.get(c, [])}
            for c in sorted(titles, key=lambda c: int(c[1:]))]


def dumps(sections: list[dict[str, Any]]) -> str:
    return json.dumps(sections, ensure_ascii=False, indent=1) + "\n"


def write(catalogue: str) -> None:
    JSON.write_text(dumps(extract(catalogue)), encoding="utf-8")
    print(f"wrote {JSON}")
