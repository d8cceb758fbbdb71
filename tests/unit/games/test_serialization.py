"""games.serialization: strict reading of JSON data into frozen dataclasses.

``from_data`` reads through a fast reader and falls back on the checking reader
(``_decoder``) for anything the fast one does not take; these tests hold the two to the
same answers, values and errors alike (the error messages name the path)."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import pytest

from games.base import Actor, ActorKind, Command
from games.checking_readers import _decoder
from games.serialization import DataError, from_data, to_data


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Point:
    x: int
    y: int


@dataclass(frozen=True)
class Shape:
    name: str
    points: tuple[Point, ...]
    colour: Colour = Colour.RED
    weight: float = 1.0
    closed: bool = False
    label: str | None = None
    tags: tuple[str, ...] = ()
    pair: tuple[int, str] = (0, "")
    kind: Literal["poly", "line"] = "poly"
    either: int | str = 0
    extra: Any = None
    by_name: dict[str, int] = field(default_factory=dict)
    seen: frozenset[int] = frozenset()
    parent: Shape | None = None


@dataclass(frozen=True)
class Positive:
    n: int

    def __post_init__(self) -> None:
        if self.n <= 0:
            raise ValueError("n must be positive")


@dataclass(frozen=True)
class Move(Command):
    direction: str


SHAPE = Shape(
    name="kite", points=(Point(0, 0), Point(1, 2)), colour=Colour.BLUE, weight=2.5, closed=True, label="k",
    tags=("a", "b"), pair=(3, "c"), kind="line", either="x", extra={"free": [1]}, by_name={"a": 1},
    seen=frozenset({4, 5}), parent=Shape(name="root", points=()),
)


def checking(cls: Any, data: Any, path: str = "") -> Any:
    """The checking reader alone: what from_data answered before it had a fast path."""
    return _decoder(cls)(data, path)


def outcome(read: Any, *args: Any) -> tuple[str, Any]:
    try:
        return ("value", read(*args))
    except DataError as exc:
        return ("DataError", (exc.path, exc.message))
    except (TypeError, ValueError) as exc:
        return (type(exc).__name__, str(exc))


def test_a_dataclass_survives_the_round_trip():
    assert from_data(Shape, to_data(SHAPE)) == SHAPE


def test_missing_optional_fields_take_their_defaults():
    assert from_data(Shape, {"name": "dot", "points": [{"x": 1, "y": 1}]}) == Shape("dot", (Point(1, 1),))


def test_a_command_reads_its_stamps_and_its_own_fields():
    data = {"direction": "NE", "actor": {"kind": "player", "seat": 2}, "at_ms": 5}
    assert from_data(Move, data) == Move(direction="NE", actor=Actor(ActorKind.PLAYER, 2), at_ms=5)


def test_an_unknown_field_is_refused_by_name():
    with pytest.raises(DataError) as caught:
        from_data(Point, {"x": 1, "y": 2, "z": 3}, "order")
    assert str(caught.value) == "order: unknown field(s) z for Point"


def test_a_missing_field_is_refused_with_its_path():
    with pytest.raises(DataError) as caught:
        from_data(Shape, {"name": "s", "points": [{"x": 1}]})
    assert (caught.value.path, caught.value.message) == ("points[0].y", "is required")


def test_a_wrong_type_deep_inside_names_the_whole_path():
    data = to_data(SHAPE)
    data["points"] = [{"x": 1, "y": 2}, {"x": 1, "y": True}]
    with pytest.raises(DataError) as caught:
        from_data(Shape, data, "event")
    assert str(caught.value) == "event.points[1].y: expected a whole number, got True"


def test_a_misfit_inside_a_union_is_reported_at_the_union():
    data = to_data(SHAPE)
    data["parent"]["points"] = [{"x": 1, "y": True}]
    with pytest.raises(DataError) as caught:
        from_data(Shape, data, "event")
    assert str(caught.value) == "event.parent: expected a whole number, got True"


def test_a_boolean_is_not_a_number_and_a_number_is_not_text():
    assert outcome(from_data, Point, {"x": True, "y": 1}) == ("DataError", ("x", "expected a whole number, got True"))
    assert outcome(from_data, Shape, {"name": 3, "points": []}) == ("DataError", ("name", "expected text, got 3"))


def test_a_whole_number_is_read_as_a_float_where_a_float_is_declared():
    value = from_data(Shape, {"name": "s", "points": [], "weight": 2})
    assert value.weight == 2.0 and isinstance(value.weight, float)


def test_a_union_takes_the_first_option_that_fits():
    assert from_data(int | float, 3) == 3 and isinstance(from_data(int | float, 3), int)
    assert from_data(int | float, 2.5) == 2.5
    assert from_data(Shape, {"name": "s", "points": [], "either": "x"}).either == "x"


def test_subclasses_and_other_mappings_are_read_as_before():
    class Seat(int):
        pass

    assert from_data(Point, MappingProxyType({"x": Seat(1), "y": 2})) == Point(1, 2)
    assert from_data(tuple[int, ...], (1, 2)) == (1, 2)


def test_a_dataclass_that_refuses_its_values_raises_as_before():
    assert outcome(from_data, Positive, {"n": -1}) == ("ValueError", "n must be positive")


def test_a_dataclass_may_contain_itself():
    assert from_data(Shape, to_data(SHAPE)).parent == Shape(name="root", points=())


def mutations(value: Any, rng: random.Random) -> Any:
    """``value`` (plain JSON data) with one random change somewhere inside."""
    junk = [None, True, 0, -1, 2.5, "", "red", "x", [], [1], {}, {"x": 1}, {"x": 1, "y": 2}]
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(sorted(value))
        roll = rng.random()
        out = dict(value)
        if roll < 0.15:
            del out[key]
        elif roll < 0.25:
            out["bogus"] = 1
        else:
            out[key] = mutations(value[key], rng)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        out = list(value)
        if rng.random() < 0.2:
            del out[i]
        else:
            out[i] = mutations(value[i], rng)
        return out
    return rng.choice(junk)


def test_the_fast_reader_answers_what_the_checking_reader_answers():
    rng = random.Random(16)
    base = to_data(SHAPE)
    for _ in range(3000):
        data = mutations(base, rng)
        assert outcome(from_data, Shape, data, "e") == outcome(checking, Shape, data, "e"), data


@dataclass(frozen=True)
class Plain:
    """A dataclass whose __init__ only sets its fields: read without calling it."""

    name: str
    points: tuple[Point, ...]
    colour: Colour = Colour.RED
    label: str | None = None
    tags: tuple[str, ...] = ()


def test_a_plain_dataclass_read_without_its_init_is_the_one_its_init_builds():
    value = Plain("p", (Point(1, 2),), Colour.BLUE, "l", ("a",))
    read = from_data(Plain, to_data(value))
    assert read == value and vars(read) == vars(value) and hash(read) == hash(value)
    assert vars(from_data(Plain, {"name": "q", "points": []})) == vars(Plain("q", ()))
    rng = random.Random(25)
    for _ in range(1000):
        data = mutations(to_data(value), rng)
        assert outcome(from_data, Plain, data, "e") == outcome(checking, Plain, data, "e"), data
