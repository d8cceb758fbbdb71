"""The proxy in front of the service (deploy/nginx/referee.conf, docker-compose.yml's
`proxy`): the reads that wait go to `live`, everything else to `web`. nginx does not run on
these machines, so its routing is read from the file and applied as nginx applies it: the
first regular-expression location that matches, else the prefix `/`; a `map` on the query's
`wait`."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from config.asgi import LIVE_PATH

ROOT = Path(__file__).resolve().parents[3]
CONF = (ROOT / "deploy" / "nginx" / "referee.conf").read_text()
SERVICES = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
GAME = "0b4c4ad2-8b9f-4a4e-9d0e-3f4c2f5d6e7a"


def _locations() -> list[tuple[str, str]]:
    """(regex or prefix, proxy_pass target) in the file's order."""
    found = re.findall(r"location\s+(~\s+\S+|/)\s*\{(.*?)\}", CONF, re.S)
    return [(where, re.search(r"proxy_pass\s+http://(\S+);", body)[1]) for where, body in found]


def _map_of(variable: str) -> tuple[str, list[tuple[str, str]]]:
    body = re.search(r"map\s+\$arg_wait\s+\$" + variable + r"\s*\{(.*?)\}", CONF, re.S)[1]
    default = re.search(r"^\s*default\s+(\w+);", body, re.M)[1]
    rules = re.findall(r'^\s*"~([^"]+)"\s+(\w+);', body, re.M)
    return default, rules


def upstream_of(target: str) -> str:
    """Where nginx sends a GET of ``target``: "web" or "live"."""
    url = urlsplit(target)
    regexes = [(where[1:].strip(), to) for where, to in _locations() if where.startswith("~")]
    to = next((to for regex, to in regexes if re.search(regex, url.path)), None)
    if to is None:
        to = dict(_locations())["/"]
    if to.startswith("$"):
        default, rules = _map_of(to[1:])
        wait = parse_qs(url.query).get("wait", [""])[0]
        to = next((up for regex, up in rules if re.search(regex, wait)), default)
    return to


@pytest.mark.parametrize("target", [
    f"/api/games/{GAME}/stream/",
    f"/api/games/{GAME}/stream/?after=12",
    f"/api/games/{GAME}/events/?after=3&wait=20",
    f"/api/games/{GAME}/events/?wait=1&as=moderator",
])
def test_the_reads_that_wait_go_to_the_live_processes(target):
    assert LIVE_PATH.match(urlsplit(target).path)
    assert upstream_of(target) == "live"


@pytest.mark.parametrize("target", [
    f"/api/games/{GAME}/events/",
    f"/api/games/{GAME}/events/?after=3",
    f"/api/games/{GAME}/events/?after=3&wait=0",
    f"/api/games/{GAME}/events/?wait=",
    f"/api/games/{GAME}/commands/",
    f"/api/games/{GAME}/",
    f"/games/{GAME}/",
    f"/games/{GAME}/stream/",
    "/health/",
    "/metrics/",
])
def test_orders_pages_and_reads_that_answer_at_once_go_to_web(target):
    assert upstream_of(target) == "web"


def test_both_upstreams_are_the_compose_services_on_their_port():
    for name in ("web", "live"):
        assert re.search(r"upstream\s+" + name + r"\s*\{[^}]*server\s+" + name + r":8000;", CONF)
        assert "0.0.0.0:8000" in SERVICES[name]["command"]


def test_the_proxy_is_the_only_door_and_mounts_this_file():
    published = [name for name, service in SERVICES.items() if any(
        not str(port).startswith("127.0.0.1:") for port in service.get("ports", []))]
    assert published == ["proxy"]
    assert "./deploy/nginx/referee.conf:/etc/nginx/conf.d/default.conf:ro" in SERVICES["proxy"]["volumes"]
    assert re.search(r"listen\s+8000;", CONF)


def test_live_runs_the_web_application_at_a_lower_cpu_share():
    web, live = SERVICES["web"]["command"], SERVICES["live"]["command"]
    without_workers = [arg for i, arg in enumerate(web) if i != web.index("--workers") + 1]
    assert [arg for i, arg in enumerate(live) if i != live.index("--workers") + 1] == without_workers
    assert SERVICES["live"]["cpu_shares"] < SERVICES["web"].get("cpu_shares", 1024)


def test_a_client_cannot_choose_the_address_its_throttles_count():
    assert re.search(r"proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;", CONF)


def test_streams_are_not_buffered_by_the_proxy():
    stream = re.search(r"location\s+~\s+\S*stream\S*\s*\{(.*?)\}", CONF, re.S)[1]
    assert re.search(r"proxy_buffering\s+off;", stream)
