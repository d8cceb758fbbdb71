"""The transports: signed JSON to a bot's server, a chat service through apprise, e-mail.
Each returns an ``Attempt`` and never raises for a receiver's failure."""

from __future__ import annotations

import datetime as dt
import http.client
import json
import socket
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import apprise
from django.conf import settings
from django.core.mail import send_mail
from standardwebhooks.webhooks import Webhook

from notices import guard
from notices.render import WEBHOOK_TYPES, Notice

#: The chat services offered, by apprise's plugin; those that always post to the service's
#: own public host need no host check of their own (the lookups are checked while sending).
_SERVICES = {"NotifyDiscord": "Discord", "NotifySlack": "Slack", "NotifyTelegram": "Telegram",
             "NotifyMatrix": "Matrix", "NotifyNtfy": "ntfy", "NotifyJSON": "JSON", "NotifyForm": "form"}
_OWN_HOST = {"NotifyDiscord", "NotifySlack", "NotifyTelegram"}


@dataclass(frozen=True)
class Attempt:
    ok: bool
    answer: str = ""  # the receiver's status line
    error: str = ""


def timeout() -> float:
    return float(getattr(settings, "NOTICES_TIMEOUT_SECONDS", 5.0))


# --- apprise ---------------------------------------------------------------------------------------


def apprise_plugin(url: str) -> Any:
    """The apprise plug-in for ``url``, checked (``guard.Refused`` with a plain reason)."""
    plugin = apprise.Apprise.instantiate(url.strip(), suppress_exceptions=True)
    if plugin is None:
        raise guard.Refused("That is not a notification URL apprise understands (see docs/notifications.md).")
    name = type(plugin).__name__
    if name not in _SERVICES:
        raise guard.Refused(f"Notices go to {', '.join(sorted(set(_SERVICES.values())))}; not to {name[6:]}.")
    needs_host = name not in _OWN_HOST and not (
        (name == "NotifyNtfy" and getattr(plugin, "mode", "") != "private")
        or (name == "NotifyMatrix" and getattr(plugin, "mode", "") == "t2bot"))
    if needs_host:
        guard.scheme_check(url.split(":", 1)[0], secure=bool(getattr(plugin, "secure", False)))
        guard.resolve(str(plugin.host or ""), int(getattr(plugin, "port", None) or (443 if plugin.secure else 80)))
    return plugin


def service_name(url: str) -> str:
    plugin = apprise.Apprise.instantiate(url.strip(), suppress_exceptions=True)
    return _SERVICES.get(type(plugin).__name__, "") if plugin is not None else ""


def to_apprise(url: str, notice: Notice, markup: str) -> Attempt:
    try:
        plugin = apprise_plugin(url)
    except guard.Refused as exc:
        return Attempt(False, error=str(exc))
    plugin.socket_connect_timeout = plugin.socket_read_timeout = timeout()
    body_format = apprise.NotifyFormat.MARKDOWN if markup == "markdown" else apprise.NotifyFormat.TEXT
    with apprise.LogCapture(level=apprise.logging.WARNING, fmt="%(message)s") as said, guard.connections_checked():
        ok = plugin.notify(body=notice.text, title=notice.title, body_format=body_format)
    words = " ".join(said.getvalue().split())
    return Attempt(True, answer="accepted") if ok else Attempt(False, error=words[-300:] or "the service refused it")


# --- Standard Webhooks -------------------------------------------------------------------------


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the address the guard checked, whatever the name resolves to by now."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def webhook_body(*, delivery_id: str, notice: str, data: dict[str, Any], at: dt.datetime) -> str:
    return json.dumps({"type": WEBHOOK_TYPES.get(notice, notice), "timestamp": at.isoformat(), "id": delivery_id,
                       "data": data}, separators=(",", ":"))


def to_webhook(url: str, secret: str, *, delivery_id: str, notice: str, data: dict[str, Any],
               now: dt.datetime) -> Attempt:
    """POST the signed body; 2xx is delivered. Redirects are not followed (a 3xx is a failure)."""
    try:
        scheme, host, port, addresses = guard.http_url_check(url)
    except guard.Refused as exc:
        return Attempt(False, error=str(exc))
    body = webhook_body(delivery_id=delivery_id, notice=notice, data=data, at=now)
    headers = {
        "content-type": "application/json", "user-agent": "referee-notices/1",
        "webhook-id": delivery_id, "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Webhook(secret).sign(delivery_id, now, body),
    }
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    connection_type = _PinnedHTTPS if scheme == "https" else _PinnedHTTP
    conn = connection_type(host, port, addresses[0], timeout())
    try:
        conn.request("POST", target, body=body.encode(), headers=headers)
        response = conn.getresponse()
        response.read(1024)  # the answer's body is not ours to keep
        line = f"HTTP {response.status} {response.reason}".strip()[:200]
    except (OSError, http.client.HTTPException) as exc:
        return Attempt(False, error=f"{type(exc).__name__}: {exc}"[:300])
    finally:
        conn.close()
    if 200 <= response.status < 300:
        return Attempt(True, answer=line)
    return Attempt(False, answer=line, error=line)


def to_email(address: str, notice: Notice) -> Attempt:
    if not address:
        return Attempt(False, error="no e-mail address in the account")
    try:
        sent = send_mail(notice.title, notice.text, None, [address], fail_silently=False)
    except Exception as exc:  # the mail backend's own failures are the delivery's error
        return Attempt(False, error=f"{type(exc).__name__}: {exc}"[:300])
    return Attempt(bool(sent), answer="accepted" if sent else "", error="" if sent else "not accepted")
