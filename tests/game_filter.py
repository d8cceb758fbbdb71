"""Does a SQL statement name its game? A checker for the statements the referee sends, as
``CaptureQueriesContext`` records them: the ORM's with their values written in
(``"referee_seat"."game_id" = '…'::uuid``), the store's plain SQL with its placeholders
(``game_id = %s::uuid``, ``%(game)s``).

A statement names its game when every reference to a game-keyed table in it (a table that
Citus would distribute by game, or that is hash-partitioned by game) is filtered by one game:

- an equality of the table's game column with one value (a placeholder or a literal),
  ANDed into the WHERE or the join condition of the table's own SELECT, UPDATE or DELETE
  (``IN`` with one value counts; ``= ANY(array)`` does not: it may name many games);
- or an equality of its game column with the game column of a reference that is filtered
  (a join on the game, a correlated subquery's ``x.game_id = outer.id``);
- an INSERT writes one game when its game column takes one value in every row.

A derived table or a CTE counts as filtered (with columns ``id`` and ``game_id`` as its game
columns) when every game-keyed table inside it is. Conditions under an OR are not trusted.
Literals of two different games in one statement are a statement on two games. SQL functions
called by a statement are not looked into (their bodies are not captured).

It is a small recursive reading of the token stream, not a SQL parser: it knows the shapes
the referee writes and the ORM emits, and it errs on the side of reporting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: Game-keyed tables and the column that names the game in each.
GAME_KEYED: dict[str, str] = {
    "referee_game": "id",
    "referee_event": "game_id",
    "referee_snapshot": "game_id",
    "referee_duework": "game_id",
    "referee_seat": "game_id",
    "referee_invitation": "game_id",
    "referee_ratedgame": "game_id",
    "notices_delivery": "game_id",
    "notices_leaguegame": "game_id",
}
DERIVED_KEYS = frozenset({"id", "game_id"})

_TOKEN = re.compile(r"""
    (?P<space>\s+|--[^\n]*|/\*.*?\*/)
  | (?P<lit>[eE]?'(?:[^']|'')*')
  | (?P<qident>"(?:[^"]|"")*")
  | (?P<param>%\([^)]*\)s|%s|\$\d+)
  | (?P<cast>::\s*(?:"[^"]*"|[A-Za-z_][A-Za-z0-9_]*)(?:\s+(?:precision|varying|with\s+time\s+zone|without\s+time\s+zone))?(?:\s*\(\s*\d+(?:\s*,\s*\d+)?\s*\))?(?:\s*\[\s*\])*)
  | (?P<num>\d+(?:\.\d+)?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_$]*)
  | (?P<op><>|!=|<=|>=|->>|->|\#>>|\#>|\|\||@>|<@|[=<>?,;.()\[\]*+\-/:|&~!@\#^])
""", re.VERBOSE | re.DOTALL)

SET_OPS = {"union", "intersect", "except"}
#: Words that end a FROM list or a condition.
CLAUSE_END = {"where", "group", "order", "limit", "offset", "for", "returning", "having", "window", "union",
              "intersect", "except", "on", "join", "inner", "left", "right", "full", "cross", "natural", "using",
              "set", "values", "do", "fetch", "select"}
NOT_ALIAS = CLAUSE_END | {"as", "lateral", "outer", "and", "or", "not", "tablesample", "with", "only"}


@dataclass(frozen=True)
class Tok:
    kind: str  # ident, lit, param, num, op, ref (alias.column), group
    value: str = ""
    alias: str = ""  # for ref
    group: tuple[Any, ...] = ()  # for group: its tokens

    def word(self, *words: str) -> bool:
        return self.kind == "ident" and self.value in words


def tokens(sql: str) -> list[Tok]:
    """The statement as tokens, identifiers unquoted and lower-cased, casts dropped,
    ``a.b`` made one reference and parentheses made nested groups."""
    flat: list[Tok] = []
    pos = 0
    while pos < len(sql):
        m = _TOKEN.match(sql, pos)
        if m is None:
            raise ValueError(f"cannot read the statement at {sql[pos:pos + 40]!r}")
        pos = m.end()
        kind = m.lastgroup
        text = m.group()
        if kind in ("space", "cast"):
            continue
        if kind == "qident":
            flat.append(Tok("ident", text[1:-1].replace('""', '"').lower()))
        elif kind == "ident":
            flat.append(Tok("ident", text.lower()))
        elif kind == "lit":
            flat.append(Tok("lit", text[text.index("'") + 1:-1].replace("''", "'")))
        else:
            flat.append(Tok(kind or "op", text))
    joined: list[Tok] = []
    i = 0
    while i < len(flat):
        t = flat[i]
        if (t.kind == "ident" and i + 2 < len(flat) and flat[i + 1].kind == "op" and flat[i + 1].value == "."
                and (flat[i + 2].kind == "ident" or flat[i + 2].value == "*")):
            joined.append(Tok("ref", flat[i + 2].value, alias=t.value))
            i += 3
            continue
        joined.append(t)
        i += 1
    stack: list[list[Tok]] = [[]]
    for t in joined:
        if t.kind == "op" and t.value == "(":
            stack.append([])
        elif t.kind == "op" and t.value == ")":
            inner = stack.pop()
            stack[-1].append(Tok("group", group=tuple(inner)))
        else:
            stack[-1].append(t)
    if len(stack) != 1:
        raise ValueError("unbalanced parentheses")
    return stack[0]


def is_query(group: Tok) -> bool:
    return group.kind == "group" and bool(group.group) and group.group[0].word("select", "with", "insert", "update",
                                                                              "delete", "values")


@dataclass
class Ref:
    table: str
    alias: str
    keys: frozenset[str]
    game_keyed: bool
    derived: bool = False
    filtered: bool = False


@dataclass
class Scope:
    refs: list[Ref] = field(default_factory=list)
    groups: list[Tok] = field(default_factory=list)  # the derived tables read as FROM items
    parent: Scope | None = None
    ctes: dict[str, Ref] = field(default_factory=dict)

    def find(self, alias: str) -> Ref | None:
        scope: Scope | None = self
        while scope is not None:
            for ref in scope.refs:
                if ref.alias == alias:
                    return ref
            scope = scope.parent
        return None

    def cte(self, name: str) -> Ref | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.ctes:
                return scope.ctes[name]
            scope = scope.parent
        return None


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    literals: set[str] = field(default_factory=set)


def problems(sql: str) -> list[str]:
    """Why the statement does not name one game (empty when it does, or touches no game-keyed table)."""
    report = Report()
    _query(list(tokens(sql)), None, report)
    if len(report.literals) > 1:
        report.problems.append(f"names {len(report.literals)} games: {sorted(report.literals)}")
    return report.problems


def _query(toks: list[Tok], parent: Scope | None, report: Report) -> tuple[bool, bool]:
    """Check a query (its CTEs, then each block of a set operation); (has game tables, all filtered)."""
    scope = Scope(parent=parent)
    has, good = False, True
    if toks and toks[0].word("with"):
        i = 1
        if i < len(toks) and toks[i].word("recursive"):
            i += 1
        while i < len(toks):
            name = toks[i].value
            i += 1
            if i < len(toks) and toks[i].kind == "group":  # a column list
                i += 1
            while i < len(toks) and toks[i].word("as", "not", "materialized"):
                i += 1
            body = toks[i]
            i += 1
            inner_has, inner_good = _query(list(body.group), scope, report)
            scope.ctes[name] = Ref(name, name, DERIVED_KEYS, inner_has, derived=True, filtered=inner_good)
            has, good = has or inner_has, good and inner_good
            if i < len(toks) and toks[i].value == ",":
                i += 1
                continue
            break
        toks = toks[i:]
    for block in _split(toks, SET_OPS):
        while block and block[0].word("all", "distinct"):
            block = block[1:]
        if len(block) == 1 and is_query(block[0]):
            block_has, block_good = _query(list(block[0].group), scope, report)
        else:
            block_has, block_good = _block(block, scope, report)
        has, good = has or block_has, good and block_good
    return has, good


def _split(toks: list[Tok], words: set[str]) -> list[list[Tok]]:
    parts: list[list[Tok]] = [[]]
    for t in toks:
        if t.kind == "ident" and t.value in words:
            parts.append([])
        else:
            parts[-1].append(t)
    return [p for p in parts if p]


def _block(toks: list[Tok], parent: Scope, report: Report) -> tuple[bool, bool]:
    """One SELECT, INSERT, UPDATE or DELETE."""
    scope = Scope(parent=parent)
    later: list[tuple[Tok, Ref | None]] = []  # lateral subqueries, functions' arguments
    insert: tuple[Ref, list[Tok]] | None = None
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.word("insert") and i + 2 < len(toks) and toks[i + 1].word("into"):
            ref = _table(toks[i + 2].value, toks[i + 2].value, scope)
            scope.refs.append(ref)
            insert = (ref, toks[i + 3:])
            break
        if t.word("from", "join") or (t.word("update") and i == 0) or (
                t.word("delete") and i == 0 and i + 1 < len(toks) and toks[i + 1].word("from")):
            if t.word("delete"):
                i += 1
            i = _from_items(toks, i + 1, scope, later, report, single=t.word("join", "update"))
            continue
        i += 1
    if insert is not None:
        _insert(insert[0], insert[1], scope, report)
    else:
        _conditions(toks, scope, report)
    for sub, lateral in later:
        inner_has, inner_good = _query(list(sub.group), scope, report)
        if lateral is not None:
            lateral.game_keyed, lateral.filtered = inner_has, inner_good
    taken = {id(sub) for sub, _ in later} | {id(t) for t in scope.groups}
    for sub in _subqueries(toks if insert is None else []):
        if id(sub) in taken:
            continue
        _query(list(sub.group), scope, report)
    _conditions(toks if insert is None else [], scope, report)  # what the subqueries' checks settled
    has = any(r.game_keyed for r in scope.refs)
    good = all(r.filtered for r in scope.refs if r.game_keyed)
    for ref in scope.refs:
        if ref.game_keyed and not ref.filtered and not ref.derived:
            report.problems.append(f"{ref.table} (as {ref.alias}) is not filtered by one game")
    return has, good


def _table(name: str, alias: str, scope: Scope) -> Ref:
    cte = scope.cte(name)
    if cte is not None:
        return Ref(name, alias, cte.keys, cte.game_keyed, derived=True, filtered=cte.filtered)
    table = table_of(name)
    if table in GAME_KEYED:
        return Ref(name, alias, frozenset({GAME_KEYED[table]}), True)
    return Ref(name, alias, frozenset(), False)


#: The tables partitioned by game (migration 0015), whose statements may name one partition,
#: ``<table>_p<remainder>`` (``referee/store/partitions.py``), and the functions with a
#: variant per partition (migration 0018).
PARTITIONED = ("referee_event", "referee_snapshot", "referee_duework")
PARTITION_NAME = re.compile(r"\b(referee_event|referee_snapshot|referee_duework|referee_log_tail|"
                            r"referee_pending_due_work)_p(\d+)\b")


def table_of(name: str) -> str:
    """The table a name reads: a partition's is its partitioned table's."""
    found = PARTITION_NAME.fullmatch(name)
    return found[1] if found and found[1] in PARTITIONED else name


def partitions_named(sql: str) -> set[str]:
    """The partitions (``_p<remainder>``) a statement names, of tables or per-partition functions."""
    return {f"_p{found[2]}" for found in PARTITION_NAME.finditer(sql)}


def _from_items(toks: list[Tok], i: int, scope: Scope, later: list[tuple[Tok, Ref | None]], report: Report, *,
                single: bool) -> int:
    """Read the FROM list (or one JOIN's or UPDATE's item) from ``i``; the index after it."""
    while i < len(toks):
        lateral = toks[i].word("lateral")
        if lateral or toks[i].word("only"):
            i += 1
        t = toks[i]
        i += 1
        if t.kind == "group" and is_query(t):
            alias, i = _alias(toks, i)
            if lateral:
                ref = Ref(alias, alias, DERIVED_KEYS, True, derived=True)
                later.append((t, ref))
                scope.refs.append(ref)
            else:
                scope.groups.append(t)
                inner_has, inner_good = _query(list(t.group), scope.parent, report)
                scope.refs.append(Ref(alias, alias, DERIVED_KEYS, inner_has, derived=True, filtered=inner_good))
        elif t.kind == "ident" and i < len(toks) and toks[i].kind == "group":  # a function: unnest(...)
            later.extend((sub, None) for sub in _subqueries([toks[i]]))
            i += 1
            alias, i = _alias(toks, i)
            scope.refs.append(Ref(t.value, alias or t.value, frozenset(), False))
        elif t.kind in ("ident", "ref"):
            name = t.value
            alias, i = _alias(toks, i)
            scope.refs.append(_table(name, alias or name, scope))
        if single or i >= len(toks) or toks[i].value != ",":
            return i
        i += 1
    return i


def _alias(toks: list[Tok], i: int) -> tuple[str, int]:
    if i < len(toks) and toks[i].word("as"):
        i += 1
    alias = ""
    if i < len(toks) and toks[i].kind == "ident" and toks[i].value not in NOT_ALIAS:
        alias = toks[i].value
        i += 1
        if i < len(toks) and toks[i].kind == "group" and not is_query(toks[i]):  # k(key): column names
            i += 1
    return alias, i


def _subqueries(toks: list[Tok] | tuple[Tok, ...]) -> list[Tok]:
    """Subqueries anywhere in ``toks`` outside FROM items (EXISTS, IN, scalar), not inside each other."""
    found = []
    for t in toks:
        if t.kind == "group":
            if is_query(t):
                found.append(t)
            else:
                found.extend(_subqueries(t.group))
    return found


def _regions(toks: list[Tok]) -> list[list[Tok]]:
    """The conditions of this block: after WHERE and after each ON, to the next clause."""
    out: list[list[Tok]] = []
    current: list[Tok] | None = None
    for t in toks:
        if t.kind == "ident" and t.value in ("where", "on"):
            current = []
            out.append(current)
        elif t.kind == "ident" and t.value in CLAUSE_END:
            current = None
        elif current is not None:
            current.append(t)
    return out


def _conjuncts(region: list[Tok] | tuple[Tok, ...]) -> list[list[Tok]]:
    """The atoms ANDed at the top of a condition, through parentheses; none under an OR."""
    if any(t.word("or") for t in region):
        return []
    out = []
    for part in _split(list(region), {"and"}):
        if len(part) == 1 and part[0].kind == "group" and not is_query(part[0]):
            out.extend(_conjuncts(part[0].group))
        elif len(part) == 2 and part[0].word("not"):
            continue
        else:
            out.append(part)
    return out


def _resolve(t: Tok, scope: Scope) -> Ref | None:
    if t.kind == "ref":
        return scope.find(t.alias)
    if t.kind == "ident":
        with_key = [r for r in scope.refs if t.value in r.keys]
        if len(scope.refs) == 1 or len(with_key) == 1:
            return (with_key or scope.refs)[0]
    return None


def _column(t: Tok) -> str:
    return t.value


def _value(t: Tok) -> bool:
    return t.kind in ("param", "lit")


def _conditions(toks: list[Tok], scope: Scope, report: Report) -> None:
    atoms = [a for region in _regions(toks) for a in _conjuncts(region)]
    changed = True
    while changed:
        changed = False
        for atom in atoms:
            if len(atom) == 3 and atom[1].value == "=" and atom[1].kind == "op":
                left, right = atom[0], atom[2]
                if _value(left):
                    left, right = right, left
                ref = _resolve(left, scope) if left.kind in ("ref", "ident") else None
                if ref is None or _column(left) not in ref.keys:
                    continue
                if _value(right):
                    if right.kind == "lit":
                        report.literals.add(right.value.replace("-", ""))
                    if not ref.filtered:
                        ref.filtered = changed = True
                elif right.kind in ("ref", "ident"):
                    other = _resolve(right, scope)
                    if other is not None and _column(right) in other.keys and other.filtered != ref.filtered:
                        other.filtered = ref.filtered = changed = True
            elif len(atom) == 3 and atom[1].word("in") and atom[2].kind == "group" and not is_query(atom[2]):
                ref = _resolve(atom[0], scope) if atom[0].kind in ("ref", "ident") else None
                values = [v for v in atom[2].group if v.value != ","]
                if ref is None or _column(atom[0]) not in ref.keys or len(values) != 1 or not _value(values[0]):
                    continue
                if values[0].kind == "lit":
                    report.literals.add(values[0].value.replace("-", ""))
                if not ref.filtered:
                    ref.filtered = changed = True


def _insert(ref: Ref, rest: list[Tok], scope: Scope, report: Report) -> None:
    """``INSERT INTO t (cols) VALUES (...), ...`` or ``... SELECT ...``: one value of the game column."""
    if not ref.game_keyed:
        if rest and rest[0].kind == "group":
            rest = rest[1:]
        if rest and rest[0].word("select", "with"):
            _query(rest, scope, report)
        return
    key = next(iter(ref.keys))
    if not rest or rest[0].kind != "group":
        return
    names = [t.value for t in rest[0].group if t.kind == "ident"]
    body = rest[1:]
    if key not in names:
        return
    at = names.index(key)
    if body and body[0].word("values"):
        rows = [t for t in body[1:] if t.kind == "group"]
        cells = [_commas(row.group) for row in rows]
        values = [c[at] for c in cells if len(c) > at]
        if values and all(len(v) == 1 and _value(v[0]) for v in values):
            report.literals.update(v[0].value.replace("-", "") for v in values if v[0].kind == "lit")
            ref.filtered = True
        return
    if body and body[0].word("select"):
        end = next((n for n, t in enumerate(body) if t.word("from", "where", "union", "on", "returning")), len(body))
        items = _commas(body[1:end])
        _query(body, scope, report)
        if len(items) > at and len(items[at]) == 1:
            cell = items[at][0]
            if _value(cell):
                if cell.kind == "lit":
                    report.literals.add(cell.value.replace("-", ""))
                ref.filtered = True


def _commas(toks: list[Tok] | tuple[Tok, ...]) -> list[list[Tok]]:
    parts: list[list[Tok]] = [[]]
    for t in toks:
        if t.kind == "op" and t.value == ",":
            parts.append([])
        else:
            parts[-1].append(t)
    return parts
