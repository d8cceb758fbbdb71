"""No request forgery: a notice goes only to a public address over https.

An endpoint's host is resolved and every address checked at each delivery, not only when
the URL is saved (a DNS answer can change). The webhook sender then connects to the very
address it checked; apprise makes its own connections, so while it sends, this thread's
name lookups are checked too (``connections_checked``): a redirect, or a second lookup
answering differently, cannot reach a private address either. ``NOTICES_ALLOW_PRIVATE``
(development, tests) lets loopback and private addresses through; ``NOTICES_ALLOW_HTTP``
lets plain http through."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

#: Cloud metadata services reachable at addresses that are otherwise "global".
_METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254"),
             ipaddress.ip_address("100.100.100.200")}


class Refused(ValueError):
    """The URL may not be called; the message says why in a plain sentence."""


def allow_private() -> bool:
    return bool(getattr(settings, "NOTICES_ALLOW_PRIVATE", False))


def allow_http() -> bool:
    return bool(getattr(settings, "NOTICES_ALLOW_HTTP", False))


def address_refusal(address: str) -> str:
    """Why this address may not be called, or "" if it may."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip in _METADATA:
        return f"{ip} is a cloud metadata address"
    if allow_private():
        return ""
    if ip.is_loopback:
        return f"{ip} is a loopback address"
    if ip.is_link_local:
        return f"{ip} is a link-local address"
    if ip.is_private or ip.is_reserved or ip.is_multicast or ip.is_unspecified or not ip.is_global:
        return f"{ip} is not a public address"
    return ""


def scheme_check(scheme: str, *, secure: bool) -> None:
    if not secure and not allow_http():
        raise Refused(f"Notices go over https only, not {scheme}.")


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to, each of them allowed; else ``Refused``."""
    if not host:
        raise Refused("The URL names no host.")
    try:
        infos = _real_getaddrinfo(host, port, 0, socket.SOCK_STREAM)
    except OSError as exc:
        raise Refused(f"The host {host} could not be resolved ({exc.strerror or exc}).") from exc
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    for address in addresses:
        why = address_refusal(address)
        if why:
            raise Refused(f"The host {host} resolves to {why}; notices are not sent there.")
    return addresses


def http_url_check(url: str) -> tuple[str, str, int, list[str]]:
    """A webhook URL, checked: (scheme, host, port, allowed addresses)."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http"):
        raise Refused("A webhook URL starts with https://.")
    scheme_check(parts.scheme, secure=parts.scheme == "https")
    if parts.username or parts.password:
        raise Refused("A webhook URL carries no user name or password; the signature authenticates.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise Refused("The URL's port is not a number from 1 to 65535.") from exc
    host = parts.hostname or ""
    return parts.scheme, host, port, resolve(host, port)


# --- every lookup a sending thread makes --------------------------------------------------------

_real_getaddrinfo = socket.getaddrinfo
_checking = threading.local()


def _checked_getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
    infos = _real_getaddrinfo(host, port, *args, **kwargs)
    if getattr(_checking, "on", False):
        for info in infos:
            why = address_refusal(str(info[4][0]))
            if why:
                raise OSError(f"refused: {host} resolves to {why}")
    return infos


socket.getaddrinfo = _checked_getaddrinfo


@contextlib.contextmanager
def connections_checked() -> Iterator[None]:
    """While inside, every name this thread looks up must resolve to allowed addresses
    (and a literal address must be allowed): a library's own connections and redirects
    included."""
    before = getattr(_checking, "on", False)
    _checking.on = True
    try:
        yield
    finally:
        _checking.on = before
