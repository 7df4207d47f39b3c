"""What the first screen does not load or do: later tabs, dialogs, writes, collections."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.zygote import Zygote
from tui.store import Store


@pytest.fixture(scope="module")
def fresh() -> Iterator[Zygote]:
    """Each case runs in a fork of one interpreter that has imported asyncio and Textual's
    core, nothing of kubik (tests/zygote.py): every check here is "M is not loaded", which a
    preloaded module could only make fail. Five interpreters each importing Textual were
    ~1.9 CPU-s."""
    if not hasattr(os, "fork"):
        pytest.skip("needs fork")
    zygote = Zygote("import asyncio, textual.app, textual.pilot, textual.widgets")
    yield zygote
    zygote.close()


LATER = (
    "filelock",  # only a write takes the lock
    "rules.drevo.exchange",
    "rules.drevo.plan",
    "rules.drevo.odds",
    "tui.systems.drevo.fight_pane.pane",
    "tui.widgets.log.pane",
    "tui.systems.drevo.builder.builder",
    "tui.widgets.party.form",
    "tui.screens.actions",
)


def test_opening_a_campaign_for_the_first_screen_loads_none_of_the_later_modules(
    campaign_path,
    fresh,
) -> None:
    Store.open(campaign_path).close()  # the file exists, as on every start but the first
    code = (
        "import sys, tui.app, tui.cli.kubik;"
        "from tui.store import Store;"
        f"Store.open({str(campaign_path)!r});"
        "from tui.bridge.sheets import sheet_text;"
        "from tui.store import Store as S;"
        f"[sheet_text('drevo', c) for c in S.open({str(campaign_path)!r}).characters()];"
        f"print([m for m in {LATER!r} if m in sys.modules])"
    )
    done = fresh.run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


async def test_the_app_turns_the_collector_back_on_once_drawn(make_test_app) -> None:
    """``kubik`` starts with the garbage collector off (tui.cli.kubik); the first screen ends
    that."""
    import gc

    gc.disable()  # as tui.cli.kubik does before it builds the app
    try:
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert gc.isenabled()
    finally:
        gc.enable()


#: Modules the running app must not have loaded when its first screen is drawn (each cost
#: 1–4 ms of the start): the dice parser (the quick-roll bar loads it on the first roll) and the
#: Древо check (Судьба's rules, which the party tab asks at start, need no dice).
NOT_AT_FIRST_PAINT = (*LATER, "rules.dice", "rules.drevo.check", "rules.modifiers")


def test_the_first_screen_is_drawn_without_the_dice_parser_or_the_check_rules(
    campaign_path,
    fresh,
) -> None:
    Store.open(campaign_path).close()  # the file exists, as on every start but the first
    code = f"""
import asyncio, sys
from tui.app import KubikApp, make_app

def first_paint(self):  # called once the first screen is drawn, before the later imports
    print([m for m in {NOT_AT_FIRST_PAINT!r} if m in sys.modules])
    self.exit()

KubikApp._import_later_tabs = first_paint

async def main():
    app = make_app({str(campaign_path)!r}, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(250):  # until the first paint exits the app
            if not app.is_running:
                break
            await pilot.pause(0.01)

asyncio.run(main())
"""
    done = fresh.run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_serving_the_seats_loads_no_openssl_digests(campaign_path, fresh) -> None:
    """``hashlib`` loads OpenSSL's digests (~0.5 MiB of the GM's peak memory, 1.31× the bare
    app with it): the seats' socket name and the hub need none of them until a seat greets.
    Nor does the hub of a Древо campaign load IDE4's rules (~0.4 MiB, for its reroll sources)."""
    import shutil
    import tempfile
    from pathlib import Path

    from tui.seats.state import seat_names
    from tui.seats.tokens import seat_key, socket_path

    store = Store.open(campaign_path)  # the file and the keys exist, as on every later start
    folder = Path(tempfile.mkdtemp(prefix="kseat", dir="/tmp"))  # a short socket path
    try:
        for seat in seat_names(store.characters()):
            seat_key(folder, store.path, store.characters(), seat)
        store.close()
        code = f"""
import asyncio, sys
from pathlib import Path
from tui.app import make_app

async def main():
    app = make_app({str(campaign_path)!r}, seed=1)
    app.seats_folder = Path({str(folder)!r})
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            hub = app.services.seat_hub
            if hub is not None and hub._server is not None:
                break
        assert hub is not None and hub._server is not None, "the hub did not start"
        later = ("_hashlib", "hashlib", "hmac", "secrets", "rules.ide4.face", "rules.ide4.model")
        print(sorted(m for m in later if m in sys.modules))

asyncio.run(main())
"""
        done = fresh.run(code)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().splitlines()[-1] == "[]"
        # The socket's name is the same SHA-256 the seat side computes.
        import hashlib

        digest = hashlib.sha256(str(campaign_path.resolve()).encode()).hexdigest()[:12]
        assert socket_path(folder, campaign_path).name == f"{digest}.sock"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_key_bar_loads_no_text_area(campaign_path, fresh) -> None:
    """Ctrl+Z's check (is a multi-line text field focused?) runs on every key bar refresh;
    importing Textual's TextArea for it cost ~0.8 MiB of the GM's peak memory (1.33× the bare
    app). The party tab, its key bar and a key pressed load no TextArea."""
    code = f"""
import asyncio, sys
from tui.app import make_app

async def main():
    app = make_app({str(campaign_path)!r}, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down", "ctrl+z")
        await pilot.pause()
        print("textual.widgets._text_area" in sys.modules)

asyncio.run(main())
"""
    done = fresh.run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_the_start_does_not_look_up_kubiks_version(fresh) -> None:
    """``--version``'s text was made for every parser, so each start imported importlib.metadata
    (with email, zipfile, csv: ~1 MiB) and searched the installed packages (40–100 ms before the
    first screen); only ``kubik --version`` needs it."""
    code = (
        "import sys; from tui.cli.kubik import app_parser;"
        "app_parser().parse_args(['--campaign', 'x.json']);"
        "print('importlib.metadata' in sys.modules)"
    )
    done = fresh.run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
