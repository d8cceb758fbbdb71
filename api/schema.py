from typing import Any

from drf_spectacular.openapi import AutoSchema

from games.json_schema import dataclass_schema
from games.registry import default_registry


class RefereeAutoSchema(AutoSchema):
    """Views nest ``InputSerializer``/``OutputSerializer`` (one class per operation); name
    their components after the view so they do not collide."""

    def _get_serializer_name(self, serializer, direction, bypass_extensions=False):
        name = super()._get_serializer_name(serializer, direction, bypass_extensions)
        if name in ("Input", "Output", "Step"):
            return f"{self.view.__class__.__name__.removesuffix('Api')}{name}"
        return name


def ruleset_orders_hook(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Document every installed ruleset's orders, generated from its command dataclasses:
    a component ``<Ruleset>_<Order>`` per order (and per nested dataclass), and the body of
    ``POST /api/games/{game_id}/commands/`` as any one of them."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    variants: list[dict[str, Any]] = []
    registry = default_registry()
    latest = {name: version for name, version in registry.names()}  # names() is sorted: the last wins
    for name, version in sorted(latest.items()):
        rules = registry.get(name, version)
        prefix = name.title().replace("_", "")

        def ref(cls: type, prefix: str = prefix) -> dict[str, Any]:
            key = f"{prefix}_{cls.__name__}"
            if key not in components:
                components[key] = {}  # reserve first: dataclasses may refer to each other
                components[key] = dataclass_schema(cls, ref, skip=frozenset())
            return {"$ref": f"#/components/schemas/{key}"}

        for command in rules.command_types:
            key = f"{prefix}_{command.__name__}"
            components[key] = dataclass_schema(command, ref)
            given = "" if command.given_by == "player" else f"Given by the {command.given_by}, not by players. "
            components[key]["description"] = (
                f"{rules.title or name}: {command.__name__}. {given}" + components[key].get("description", "")
            ).strip()
            if command.given_by != "player":
                continue
            variants.append({
                "type": "object",
                "title": key,
                "properties": {
                    "type": {"type": "string", "enum": [command.__name__]},
                    "payload": {"$ref": f"#/components/schemas/{key}"},
                    "expected_seq": {"type": "integer", "minimum": 0, "description": (
                        "the last seq you saw; if the log has moved on you get 409 and nothing happens")},
                },
                "required": ["type"],
            })
    components["OrderRequest"] = {
        "description": "Any order of the game's ruleset: its type and its fields (see each ruleset's components).",
        "anyOf": variants,
    }
    body = result.get("paths", {}).get("/api/games/{game_id}/commands/", {}).get("post", {}).get("requestBody")
    if body:
        for media in body.get("content", {}).values():
            media["schema"] = {"$ref": "#/components/schemas/OrderRequest"}
    return result
