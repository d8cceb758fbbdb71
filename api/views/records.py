"""A game's record as one downloadable, self-describing file (format in ``games.record``)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.views.common import game_for, viewer
from referee import selectors


class GameRecordApi(APIView):
    """The game's record: ruleset and version, the dice seed's commitment (the seed once the
    game is over) and the log. Whoever sees the whole log (moderators with ``as=moderator``;
    everyone once a finished game's log is public) gets every record with its hash and its
    predecessor's, so ``python -m games.record verify FILE`` re-hashes the chain, recomputes
    every draw and re-decides every order. A player gets the log as they see it, numbered in
    their own sequence, without hashes: a hash covers what they may not see."""

    class RecordSerializer(serializers.Serializer):
        format = serializers.CharField(help_text='"referee-record"')
        format_version = serializers.IntegerField()
        game = serializers.DictField(help_text="id, name, ruleset, ruleset_version, status, private_log")
        dice = serializers.DictField(help_text="seed_commitment, seed (null until the game is over), procedure")
        view = serializers.DictField(help_text='{"whole": true}, or {"whole": false, "kind", "seat"}')
        records = serializers.ListField(child=serializers.DictField(), help_text=(
            "whole: every hashed field of each record with prev_hash and hash; "
            "otherwise the viewer's feed items"))

    @extend_schema(parameters=[OpenApiParameter("as", str, enum=["moderator"])], responses=RecordSerializer)
    def get(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        data = selectors.game_record_get(game=game, viewer=viewer(request, game))
        whose = "" if data["view"]["whole"] else f"-{data['view']['kind']}{data['view']['seat'] or ''}"
        filename = f"{game.ruleset}-{game.pk}{whose}.record.json"
        return Response(data, headers={"Content-Disposition": f'attachment; filename="{filename}"'})
