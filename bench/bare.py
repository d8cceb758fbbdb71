"""The bench's yardstick for one order through the API: a bare DRF view on the same server
(the same middleware, authentication and transaction handling) that writes one row.
Mounted only by ``bench/urls.py``; never part of the service."""

from __future__ import annotations

from django.db import connection
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee.store.hashing import canonical

TABLE = "bench_bare_post"


def create_table() -> None:
    with connection.cursor() as cur:
        cur.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id bigserial PRIMARY KEY, user_id int, body jsonb)")


class BarePost(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request: Request) -> Response:
        with connection.cursor() as cur:  # autocommit: the INSERT is its own transaction
            cur.execute(f"INSERT INTO {TABLE} (user_id, body) VALUES (%s, %s) RETURNING id",
                        [request.user.pk, canonical(request.data)])
            (row_id,) = cur.fetchone()
        return Response({"id": row_id}, status=status.HTTP_201_CREATED)
