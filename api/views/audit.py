from __future__ import annotations

from dataclasses import asdict

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.idempotency import idempotent
from api.permissions import IsModerator
from api.views.common import game_for, int_param, viewer
from api.views.play import EventSerializer
from games.base import MODERATOR_VIEW
from games.dice import __doc__ as DICE_PROCEDURE
from referee import selectors, services
from referee.core import VerifyReport
from referee.errors import GameNotFound, InvalidSetting
from referee.models import Game


class GameReplayApi(APIView):
    """Step through a game: without ``seq`` the list of steps, with ``seq`` one step (the
    order, the dice, the events, what changed, the rulebook clauses)."""

    class StepSerializer(serializers.Serializer):
        seq = serializers.IntegerField()
        order = EventSerializer()
        events = EventSerializer(many=True)
        clauses = serializers.ListField(child=serializers.CharField())
        diff = serializers.ListField(child=serializers.DictField())
        position_after = serializers.DictField()
        draws = serializers.ListField(child=serializers.DictField(), required=False)

    @extend_schema(parameters=[OpenApiParameter("seq", int), OpenApiParameter("as", str, enum=["moderator"])],
                   responses=StepSerializer)
    def get(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        who = viewer(request, game)
        seq = int_param(request, "seq", None, low=1)
        if seq is None:
            return Response({"steps": selectors.game_replay_index(game_id=str(game.pk), viewer=who)})
        step = selectors.game_replay_step(game_id=str(game.pk), viewer=who, seq=seq)
        if step is None:
            raise GameNotFound(f"There is no step of yours to see at seq {seq}.")
        return Response(step)


class GameLogApi(APIView):
    """Moderators: the whole log, every record and every dice draw."""

    permission_classes = [IsModerator]

    @extend_schema(parameters=[OpenApiParameter("after", int)], responses=EventSerializer(many=True))
    def get(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        after = int_param(request, "after", 0)
        return Response(selectors.game_events_list(game_id=str(game.pk), viewer=MODERATOR_VIEW, after=after))


class GameVerifyApi(APIView):
    """Moderators: hash chain, contiguity, re-adjudication and snapshots, checked now.
    GET only reports; POST also acts on the report: a broken game is frozen until a
    moderator resolves it, and snapshots that disagree with the log are dropped."""

    permission_classes = [IsModerator]

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        records = serializers.IntegerField()
        commands = serializers.IntegerField()
        problems = serializers.ListField(child=serializers.DictField())

    @staticmethod
    def _out(report: VerifyReport) -> dict:
        return {"ok": report.ok, "records": report.records, "commands": report.commands,
                "problems": [asdict(p) for p in report.problems]}

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        return Response(self._out(selectors.game_verify_report(game_id=str(game.pk))))

    @extend_schema(request=None, responses=OutputSerializer)
    def post(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        return Response(self._out(services.game_verify(game_id=str(game.pk), freeze=True)))


class GameCorrectionApi(APIView):
    """Moderators rule on disputes by appending, never by editing: each correction is a
    record with a reason that everyone sees."""

    permission_classes = [IsModerator]

    class InputSerializer(serializers.Serializer):
        action = serializers.ChoiceField(choices=["extend_deadline", "pause", "resume", "unfreeze", "ruling"])
        reason = serializers.CharField(max_length=500)
        hours = serializers.IntegerField(required=False, min_value=1, max_value=24 * 14)
        order = serializers.DictField(required=False, help_text="for 'ruling': {type, payload}, a moderator order "
                                      "of the ruleset (adjust health, move or restore a worm, return ammo ...)")

    class OutputSerializer(serializers.Serializer):
        action = serializers.CharField()
        seq = serializers.IntegerField()

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    @idempotent
    def post(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        asked = data.validated_data
        game_id, moderator, reason = str(game.pk), request.user, asked["reason"]
        if asked["action"] == "extend_deadline":
            services.deadline_extend(game_id=game_id, moderator=moderator, hours=asked.get("hours") or 24, reason=reason)
        elif asked["action"] == "pause":
            services.game_pause(game_id=game_id, moderator=moderator, reason=reason)
        elif asked["action"] == "resume":
            services.game_resume(game_id=game_id, moderator=moderator, reason=reason)
        elif asked["action"] == "unfreeze":
            services.game_unfreeze(game_id=game_id, moderator=moderator, reason=reason)
        else:
            order = asked.get("order") or {}
            if not isinstance(order.get("type"), str) or not isinstance(order.get("payload", {}), dict):
                raise InvalidSetting("A ruling needs an order: {type, payload}.")
            services.moderator_ruling(game_id=game_id, moderator=moderator, reason=reason,
                                      command_type=order["type"], payload=order.get("payload", {}))
        last = selectors.game_last_seq(game_id=game_id)
        return Response({"action": asked["action"], "seq": last}, status=status.HTTP_201_CREATED)


class GameDiceApi(APIView):
    """The dice commitment: the seed's hash from the start, the seed itself once the game
    is over, and the procedure to recompute every roll."""

    class OutputSerializer(serializers.Serializer):
        seed_hash = serializers.CharField()
        seed = serializers.CharField(allow_null=True)
        procedure = serializers.CharField()

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        revealed = game.status == Game.Status.FINISHED
        return Response({"seed_hash": game.seed_hash, "seed": game.seed if revealed else None,
                         "procedure": DICE_PROCEDURE.strip()})

