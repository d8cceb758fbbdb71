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


# --- errors: every operation documents its problem+json answers ------------------------------

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "RFC 9457 problem details: every error of this API has this shape "
                   "(Content-Type: application/problem+json).",
    "properties": {
        "type": {"type": "string", "description": "/problems/<code>, e.g. /problems/rule_violation"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string", "description": "a sentence a player understands"},
        "rule": {"type": "string", "description": "the rulebook section, for refused orders (rule_violation)"},
        "errors": {"type": "object", "additionalProperties": True,
                   "description": "for invalid: the message of each field that is wrong"},
    },
    "required": ["type", "title", "status", "detail"],
}

_WHY = {
    "400": "refused: `invalid` (a field or the Idempotency-Key header is wrong), `malformed` (not JSON, nested too deeply, a lone UTF-16 "
           "surrogate, a NUL), `rule_violation` (the rules refuse the order; `rule` names the section), "
           "`seat_error` (you have no seat in this game, or not the one this needs), `invalid_setting`",
    "401": "not signed in: send `Authorization: Token <token>` (POST /api/auth/token/)",
    "403": "signed in, but this is for moderators (or the game's creator)",
    "404": "`game_not_found`/`not_found`: no such game or league, or not yours to see (a private game "
           "is not found by strangers)",
    "409": "`game_frozen`, `game_not_active`, `log_advanced` (your `expected_seq` is stale: nothing "
           "happened), `log_corrupt`",
    "413": "`too_large`: the body is over the limit",
    "422": "`idempotency_key_reused`: this Idempotency-Key was used for a different request",
    "429": "`throttled`: too many requests; `Retry-After` says when to try again",
    "500": "`server_error`: a fault on our side (logged); retry later",
    "503": "`unavailable`",
}


def _problem_response(code: str) -> dict[str, Any]:
    return {"description": _WHY[code],
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}


def problem_responses_hook(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Document the problem+json error answers of every operation (which ones depend on the
    operation: its body, its path, who may call it), the Idempotency-Key header of the
    writes that honour it, and the shape of a ``/turn/`` step for each ruleset."""
    result.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
    views = _views_by_operation(generator)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            view_method = views.get((path, method.upper()))
            codes = ["400", "429", "500"]
            if "{" in path:
                codes.append("404")
            if {} not in operation.get("security", [{}]):
                codes.append("401")
            if view_method is not None and _moderators_only(view_method[0], method):
                codes.append("403")
            if method in ("post", "put", "patch"):
                codes.append("413")
                if path.startswith("/api/games/{game_id}/"):
                    codes.append("409")
            if view_method is not None and _honours_idempotency_key(*view_method, path):
                codes.append("422")
                _add_idempotency_header(operation)
            for code in sorted(codes):
                operation["responses"].setdefault(code, _problem_response(code))
    _document_turn_steps(result)
    _link_created_resources(result)
    return result


def _link_created_resources(result: dict[str, Any]) -> None:
    """OpenAPI links from what creates a game or a league to what uses its id: clients and
    stateful fuzzing (schemathesis) follow them."""
    paths = result.get("paths", {})
    for creator, param in (("/api/games/", "game_id"), ("/api/leagues/", "league_id")):
        created = paths.get(creator, {}).get("post", {}).get("responses", {}).get("201")
        if created is None:
            continue
        links = created.setdefault("links", {})
        for path, operations in sorted(paths.items()):
            if f"{{{param}}}" not in path:
                continue
            for operation in operations.values():
                if isinstance(operation, dict) and "operationId" in operation:
                    links[operation["operationId"]] = {
                        "operationId": operation["operationId"],
                        "parameters": {param: "$response.body#/id"},
                    }


def _views_by_operation(generator: Any) -> dict[tuple[str, str], tuple[type, str]]:
    found: dict[tuple[str, str], tuple[type, str]] = {}
    for path, _regex, method, callback in getattr(generator, "endpoints", None) or []:
        cls = getattr(callback, "cls", None)
        if cls is not None:
            found[(path, method.upper())] = (cls, method.lower())
    return found


def _moderators_only(view: type, method: str) -> bool:
    from api.permissions import IsModerator

    return any(isinstance(p, type) and issubclass(p, IsModerator)
               and not (getattr(p, "reads_open", False) and method.upper() in ("GET", "HEAD", "OPTIONS"))
               for p in getattr(view, "permission_classes", []))


def _honours_idempotency_key(view: type, method: str, path: str) -> bool:
    handler = getattr(view, method, None)
    # @idempotent wraps the handler; orders pass the key to the referee itself.
    return hasattr(handler, "__wrapped__") or path.endswith(("/commands/", "/turn/"))


def _add_idempotency_header(operation: dict[str, Any]) -> None:
    params = operation.setdefault("parameters", [])
    if any(p.get("name") == "Idempotency-Key" for p in params):
        return
    params.append({
        "in": "header", "name": "Idempotency-Key", "required": False,
        "schema": {"type": "string", "minLength": 1, "maxLength": 120},
        "description": "any unique string (1-120 characters; otherwise 400 `invalid`): a retry with the same "
                       "key gets the first answer again (header Idempotent-Replayed: true) instead of doing "
                       "the write twice. Keys are yours alone: an order's key is unique among your seat's "
                       "orders in the game, another write's among your own requests, so another player's "
                       "keys never clash with yours",
    })


def _document_turn_steps(result: dict[str, Any]) -> None:
    """A step of ``POST /turn/`` is one of the ruleset's step orders, untagged: its fields
    only (Worms: ``{"worm": "A1", "path": ["c5"]}`` moves, ``{}`` ends the turn)."""
    body = (result.get("paths", {}).get("/api/games/{game_id}/turn/", {}).get("post", {})
            .get("requestBody", {}))
    components = result["components"]["schemas"]
    registry = default_registry()
    latest = {name: version for name, version in registry.names()}
    variants: list[dict[str, Any]] = []
    for name, version in sorted(latest.items()):
        rules = registry.get(name, version)
        whole = getattr(rules, "whole_turn", None)
        if not whole:
            continue
        command, field = whole
        schema = components.get(f"{name.title().replace('_', '')}_{command}", {})
        items = schema.get("properties", {}).get(field, {}).get("items")
        if items:
            title = f"{rules.title or name}: a step of {command}"
            variants.append({"title": title, "allOf": [items]} if "$ref" in items else {**items, "title": title})
    if not variants:
        return
    for media in body.get("content", {}).values():
        ref = media.get("schema", {}).get("$ref", "")
        target = components.get(ref.rsplit("/", 1)[-1]) if ref else media.get("schema")
        if target and "steps" in target.get("properties", {}):
            target["properties"]["steps"]["items"] = {"anyOf": variants}
