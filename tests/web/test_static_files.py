"""The web process serves its own static files (the offline API docs' assets): under
uvicorn or gunicorn, with DEBUG off, nothing else would."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.django_db]


@pytest.mark.parametrize("path", [
    "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js",
    "/static/admin/css/base.css",
])
def test_static_assets_are_served_by_the_app_itself(client, settings, path):
    settings.DEBUG = False
    response = client.get(path)
    assert response.status_code == 200
    assert int(response.headers["Content-Length"]) > 1000


def test_the_api_docs_page_loads_its_assets_from_this_server(client):
    html = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
