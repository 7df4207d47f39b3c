"""Widgets, screens and seats get the services they declare, never the app's by duck typing
(issue 29): no ``getattr(self.app, …)``, ``setattr``, ``hasattr``, ``vars`` or ``__dict__`` on
an app, and no call of ``services(…)`` — the whole of the services — outside the app's own
wiring (a widget declares what it uses: ``store = lent.store``, tui/services/lent.py; mypy
then refuses what it does not declare, tests/test_tooling.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.every_case import assert_every_case

ROOT = Path(__file__).resolve().parents[2]

#: Where ``services(…)`` may be called: the services themselves, the app and its parts (the App
#: subclass that lends them), and the seats' attach to the app (tui/seats/gm.py: ``attach``
#: and ``hub_of`` are handed the App, and hand the hub its services).
SERVICES_MAY_BE_CALLED = ("tui/services/", "tui/app.py", "tui/appparts/", "tui/seats/gm.py")
#: The App subclasses themselves may read their own attributes as they like.
APPS = ("tui/app.py", "tui/appparts/", "tui/view.py")

REFLECTION = {"getattr", "setattr", "hasattr", "delattr", "vars"}
#: A module without one of these words can hold no finding: it is not parsed (three in four).
WORDS = re.compile(r"\b(services|getattr|setattr|hasattr|delattr|vars)\b|__dict__")


def _mentions_app(node: ast.AST) -> bool:
    return any(
        (isinstance(n, ast.Name) and n.id == "app")
        or (isinstance(n, ast.Attribute) and n.attr == "app")
        or (isinstance(n, ast.Constant) and n.value == "app")
        for n in ast.walk(node)
    )


def findings(source: str, where: str) -> list[str]:
    """Every duck-typed reach into an app, or call of ``services``, in ``source``."""
    found: list[str] = []
    if not WORDS.search(source):
        return found
    app_module = where.startswith(APPS)
    may_call = where.startswith(SERVICES_MAY_BE_CALLED)
    for node in ast.walk(ast.parse(source)):
        line = f"{where}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name == "services" and not may_call:
                found.append(f"{line}: services(…) — declare what it uses (tui/services/lent.py)")
            if name in REFLECTION and node.args and not app_module:
                if _mentions_app(node.args[0]) or (
                    name in ("getattr", "hasattr") and _mentions_app(node.args[1])
                ):
                    found.append(f"{line}: {name}(…) on the app — a typed service instead")
        if isinstance(node, ast.Attribute) and node.attr == "__dict__" and not app_module:
            if _mentions_app(node.value):
                found.append(f"{line}: the app's __dict__ — a typed service instead")
    return found


def test_no_widget_screen_or_seat_reaches_the_app_by_duck_typing() -> None:
    found = [
        hit
        for path in sorted((ROOT / "tui").rglob("*.py"))
        for hit in findings(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert not found, "\n".join(found)


EACH_DUCK_TYPED_REACH_IS_FOUND = [
    'store = getattr(self.app, "store", None)',
    'store = getattr(getattr(widget, "app", None), "store", None)',
    "hub = self.app.__dict__.get('_seat_hub')",
    "app.__dict__['queue'] = []",
    'setattr(self.app, "queue", [])',
    'if hasattr(self.app, "rng"): pass',
    "lent = services(self)",
]


def test_each_duck_typed_reach_is_found() -> None:
    """The check finds each form (it would pass vacuously otherwise)."""

    def check(code: str) -> None:
        assert findings(code, "tui/widgets/example.py")

    assert_every_case(EACH_DUCK_TYPED_REACH_IS_FOUND, check, star=False)


def test_a_declared_service_and_textuals_own_app_api_pass() -> None:
    code = (
        "class Pane:\n"
        "    store = lent.store\n"
        "    def go(self):\n"
        "        self.app.notify(str(self.store.campaign.name))\n"
        "        self.app.push_screen(Screen())\n"
    )
    assert findings(code, "tui/widgets/example.py") == []
    assert findings("services(app).seat_hub", "tui/seats/gm.py") == []
