"""People at the pages, as every browser test brings them: an account, a browser of their own
(a desktop screen or a phone) signed in with the pages' confirmations accepted, the marker
that tells an update in place from a reload, and the checks a whole-game test makes the
same way whatever the ruleset."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

DESKTOP = {"width": 1280, "height": 1000}
PHONE = {"width": 390, "height": 844}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def account(name: str, *, staff: bool = False):
    """An account whose password is ``pw-`` and its name."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=name, password="pw-" + name, is_staff=staff)


def sign_in(page: Page, server: str, username: str) -> None:
    page.goto(server + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-" + username)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My games")).to_be_visible()


def signed_in(browser: Browser, server: str, username: str, viewport: dict) -> Page:
    """A page in a browser context of its own, signed in; at ``PHONE`` size the browser
    lays the page out as a phone's does (the layout viewport widens to the widest content)
    and takes taps."""
    phone = {"is_mobile": True, "has_touch": True} if viewport == PHONE else {}
    page = browser.new_context(viewport=viewport, **phone).new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # a person confirms what they asked for
    sign_in(page, server, username)
    return page


def open_and_join(page: Page, *, ruleset: str, name: str, settings: dict[str, str], team: str,
                  players: int = 2) -> None:
    """From the lobby: open a game of ``ruleset`` on the create page, each setting filled by
    the start of its label, and join it as ``team``."""
    page.get_by_role("link", name="Open a new game").click()
    page.get_by_label("Game", exact=True).select_option(ruleset)
    first = next(iter(settings))
    expect(page.get_by_label(re.compile("^" + first))).to_be_visible()  # choosing the game reloads the form
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label(re.compile("^Players")).fill(str(players))
    for label, value in settings.items():
        page.get_by_label(re.compile("^" + label)).fill(value)
    page.get_by_role("button", name="Open the game").click()
    page.get_by_label("Team name").fill(team)
    page.get_by_role("button", name="Join the game").click()
    expect(page.get_by_text(f"You joined {name}.")).to_be_visible()


def mark_document(page: Page) -> None:
    """Mark the page's document: a reload loses the mark, an update in place keeps it."""
    page.evaluate("window.__sameDocument = true")


def same_document(page: Page) -> bool:
    return bool(page.evaluate("window.__sameDocument === true"))


def assert_is_png(page: Page, url: str) -> None:
    """The picture at ``url`` is served as a PNG and is one."""
    response = page.request.get(url)
    assert response.ok and response.headers["content-type"] == "image/png"
    assert response.body().startswith(PNG_SIGNATURE)
