"""Broken campaign files: each is refused (or read) with a Russian message, never changed.

Every case is a whole file on disk. Each one goes through the store (``Store.open``, as the
app, the view and every command open a campaign), the CLI (``kubik party list``), the
players' view (``kubik --view``) and the app's entry (``kubik`` with stdin not a terminal,
so no backup prompt): none may print a traceback, and the file's bytes must be unchanged.
A file refused at ``Store.open`` never reaches Textual; the cases kubik reads (cleaned or
tolerated) are opened together in the real app and the view by
``test_read_files_run_in_the_app_and_the_view``.
Issue 15 counted 41 such files; hypothesis adds generated ones at the end.
"""

from __future__ import annotations

import functools
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.drevo.sheet import DrevoSheet
from tests.every_case import assert_every_case, fresh_folder
from tests.hypo import examples
from tui.cli import kubik as cli
from tui.store import CampaignCorrupt, Store, StoreError

Tables = dict[str, Any]
CYRILLIC = re.compile("[а-яА-ЯёЁ]")


@functools.cache
def _demo_text() -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "demo.json"
        Store.open(path).close()
        return path.read_text(encoding="utf-8")


def demo_tables() -> Tables:
    """Return the demo campaign's tables (a fresh copy)."""
    return json.loads(_demo_text())


def first(t: Tables) -> dict[str, Any]:
    return next(iter(t["characters"].values()))


def meta(t: Tables) -> dict[str, Any]:
    return next(iter(t["meta"].values()))


def edit(change: Callable[[Tables], Any]) -> Callable[[Tables], bytes]:
    def make(t: Tables) -> bytes:
        change(t)
        return json.dumps(t, ensure_ascii=False).encode()

    return make


def raw(data: bytes) -> Callable[[Tables], bytes]:
    return lambda t: data


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def setitem(target: Callable[[Tables], dict], key: str, value: Any) -> Callable[[Tables], None]:
    def change(t: Tables) -> None:
        target(t)[key] = value

    return change


def dup_id(t: Tables) -> None:
    docs = list(t["characters"].values())
    docs[1]["id"] = docs[0]["id"]


def add_doc(value: Any, name: str = "settings") -> Callable[[Tables], None]:
    def change(t: Tables) -> None:
        t["docs"]["1"] = {"name": name, "value": value}

    return change


def two_docs(t: Tables) -> None:
    t["docs"] = {"1": {"name": "encounter", "value": {}}, "2": {"name": "encounter", "value": {}}}


def deep_text(depth: int) -> bytes:
    return b'{"meta": {"1": {"x": ' + b"[" * depth + b"]" * depth + b"}}}"


def schema1_with_log(entry: Any) -> Callable[[Tables], None]:
    """A schema-1 file (its Журнал inside it) whose one log entry is ``entry``."""

    def change(t: Tables) -> None:
        meta(t)["schema_version"] = 1
        for table in ("docs", "history"):
            t.pop(table)
        t["log"] = {"1": entry}

    return change


def skill(t: Tables, **fields: Any) -> None:
    first(t)["skills"][0].update(fields)


#: id → (how the file is made, what the message must name; None: kubik reads the file).
REFUSED: dict[str, tuple[Callable[[Tables], bytes], str]] = {
    # -- not a campaign file at all
    "empty": (raw(b""), "пуст"),
    "zeros": (raw(b"\0" * 512), "нулями"),
    "not-utf8": (raw(b"\xff\xfe{}"), "UTF-8"),
    "not-json": (raw(b'{"meta": '), "не JSON"),
    "truncated": (lambda t: json.dumps(t).encode()[:-40], "не JSON"),
    "top-level-list": (raw(b"[]"), "структура"),
    "table-is-list": (raw(b'{"meta": []}'), "структура"),
    "nested-100000": (raw(b"[" * 100_000 + b"]" * 100_000), "глубоко"),
    "nested-100000-inside": (raw(deep_text(100_000)), "глубоко"),
    # -- meta
    "no-meta": (edit(lambda t: t.pop("meta")), "meta"),
    "two-metas": (edit(lambda t: t["meta"].update({"2": dict(meta(t))})), "meta"),
    "schema-string": (edit(setitem(meta, "schema_version", "3")), "схемы"),
    "schema-zero": (edit(setitem(meta, "schema_version", 0)), "схемы"),
    "schema-newer": (edit(setitem(meta, "schema_version", 99)), "новой версией"),
    "name-number": (edit(setitem(meta, "name", 5)), "meta.name"),
    "name-empty": (edit(setitem(meta, "name", "  ")), "meta.name"),
    "system-unknown": (edit(setitem(meta, "system", "gurps")), "meta.system"),
    "system-number": (edit(setitem(meta, "system", 1)), "meta.system"),
    "rev-negative": (edit(setitem(meta, "rev", -1)), "meta.rev"),
    # -- characters
    "character-list": (edit(lambda t: t["characters"].update({"1": []})), "персонаж 1"),
    "id-missing": (edit(lambda t: first(t).pop("id")), "поле id"),
    "id-number": (edit(setitem(first, "id", 7)), "поле id"),
    "id-duplicate": (edit(dup_id), "id"),
    "name-missing": (edit(lambda t: first(t).pop("name")), "поле name"),
    "kind-unknown": (edit(setitem(first, "kind", "boss")), "поле kind"),
    "qualities-list": (edit(setitem(first, "qualities", [1, 2])), "поле qualities"),
    "quality-text": (edit(lambda t: first(t)["qualities"].update({"Сила": "abc"})), "Сила"),
    "quality-float": (edit(lambda t: first(t)["qualities"].update({"Сила": 1.5})), "Сила"),
    "quality-huge": (edit(lambda t: first(t)["qualities"].update({"Сила": 10**30})), "Сила"),
    "skills-text": (edit(setitem(first, "skills", "Драка 2")), "поле skills"),
    "skill-not-object": (edit(lambda t: first(t)["skills"].append(3)), "навык"),
    "skill-value-text": (edit(lambda t: skill(t, value="abc")), "поле value"),
    "skill-parent-number": (edit(lambda t: skill(t, parent=3)), "поле parent"),
    "skill-distances-text": (edit(lambda t: skill(t, distances="ПД")), "поле distances"),
    "weapons-text": (edit(setitem(first, "weapons", "Меч")), "поле weapons"),
    "fate-negative": (edit(setitem(first, "fate", -1)), "поле fate"),
    "fate-text": (edit(setitem(first, "fate", "две")), "поле fate"),
    "wound-negative": (edit(lambda t: first(t)["wounds"].update({"light": -2})), "wounds.light"),
    "wound-unknown": (edit(lambda t: first(t)["wounds"].update({"deadly": 1})), "wounds.deadly"),
    "wounds-list": (edit(setitem(first, "wounds", [0, 0])), "поле wounds"),
    "notes-number": (edit(setitem(first, "notes", 5)), "поле notes"),
    "extra-list": (edit(setitem(first, "extra", [1])), "поле extra"),
    "energy-text": (edit(setitem(first, "extra", {"energy": "много"})), "extra.energy"),
    "hidden-text": (edit(setitem(first, "extra", {"hidden": "да"})), "extra.hidden"),
    "extra-deep": (edit(setitem(first, "extra", {"x": nested(200)})), "вложенность"),
    # -- app documents
    "doc-list": (edit(lambda t: t["docs"].update({"1": []})), "документ 1"),
    "doc-no-name": (edit(lambda t: t["docs"].update({"1": {"value": {}}})), "поле name"),
    "doc-twice": (edit(two_docs), "encounter"),
    "settings-list": (edit(add_doc([1, 2])), "settings"),
    "settings-table-list": (edit(add_doc({"drevo/ladder.toml": []})), "drevo/ladder.toml"),
    "encounter-text": (edit(add_doc("бой", name="encounter")), "encounter"),
    "encounter-side-number": (
        edit(add_doc({"phase": "declare", "sides": [3, 4]}, name="encounter")),
        "поле sides",
    ),
    "encounter-combatant-text": (
        edit(add_doc({"combatants": ["a"]}, name="encounter")),
        "combatants[1]",
    ),
    "encounter-turns-text": (
        edit(add_doc({"declarations": [{"actor": "a", "turns": "2"}]}, name="encounter")),
        "declarations[1].turns",
    ),
    "doc-deep": (edit(add_doc({"x": nested(500)}, name="encounter")), "вложенность"),
    "schema1-log-entry-list": (edit(schema1_with_log([1, 2])), "неожиданные данные"),
    "schema1-log-entry-no-text": (
        edit(schema1_with_log({"id": "x", "at": "", "kind": "roll"})),
        "неожиданные",
    ),
    "history-deep": (edit(lambda t: t["history"].update({"1": {"undo": nested(300)}})), "вложен"),
}

#: Files kubik reads: control codes in names are cleaned, unknown extras are kept.
READ: dict[str, Callable[[Tables], bytes]] = {
    "osc52-name": edit(setitem(first, "name", "\x1b]52;c;cm0gLXJmIH4=\x07Волк")),
    "osc2-campaign": edit(setitem(meta, "name", "\x1b]2;pwned\x07Кампания")),
    "csi-notes": edit(setitem(first, "notes", "\x1b[2J\x1b[H\x9b31m")),
    "dcs-skill": edit(lambda t: skill(t, name="\x1bP+q544e\x1b\\Драка")),
    "history-garbage": edit(lambda t: t["history"].update({"1": {"undo": "x", "redo": [1]}})),
    "unknown-extra": edit(setitem(first, "extra", {"future": {"a": [1, 2]}})),
}


def write_case(tmp: Path, make: Callable[[Tables], bytes]) -> tuple[Path, bytes]:
    data = make(demo_tables())
    path = tmp / "campaign.json"
    path.write_bytes(data)
    return path, data


def run_cli(capsys, argv: list[str]) -> tuple[int, str]:
    try:
        code = cli.main(argv)
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return int(code or 0), out + err


def no_traceback(text: str) -> bool:
    return "Traceback" not in text and "Error:" not in text and "\x1b" not in text


def test_the_suite_covers_at_least_forty_files() -> None:
    assert len(REFUSED) + len(READ) >= 40


A_BROKEN_FILE_IS_REFUSED_EVERYWHERE_AND_NEVER_CHANGED = list(REFUSED)


def test_a_broken_file_is_refused_everywhere_and_never_changed(
    tmp_path, capsys, monkeypatch
) -> None:
    def check(case) -> None:
        folder = fresh_folder(tmp_path)  # a folder of its own, as its item had
        make, named = REFUSED[case]
        path, data = write_case(folder, make)
        with pytest.raises(StoreError) as err:
            Store.open(path)
        message = str(err.value)
        assert named in message and CYRILLIC.search(message), message
        assert "invalid literal" not in message and "indices" not in message
        monkeypatch.setattr("sys.stdin.isatty", lambda: False)  # no backup prompt
        for argv in (
            ["party", "list", "--campaign", str(path)],  # the CLI
            ["log", "--campaign", str(path)],
            ["--view", "--campaign", str(path)],  # the players' view's entry
            ["--campaign", str(path)],  # the app's entry: refused before Textual starts
        ):
            code, said = run_cli(capsys, argv)
            assert code == 1 and named in said and no_traceback(said), (argv, said)
        assert path.read_bytes() == data
        assert [p.name for p in folder.iterdir()] == ["campaign.json"]  # no lock, no backup

    assert_every_case(A_BROKEN_FILE_IS_REFUSED_EVERYWHERE_AND_NEVER_CHANGED, check, star=False)


def test_a_broken_file_offers_its_newest_good_backup(tmp_path, capsys, monkeypatch) -> None:
    path = tmp_path / "c.json"
    store = Store.open(path)
    store.rename("Целая")  # the good version becomes a backup with the next write
    store.rename("Целая 2")
    store.close()
    t = json.loads(path.read_text(encoding="utf-8"))
    first(t)["wounds"]["light"] = -2
    path.write_text(json.dumps(t, ensure_ascii=False), encoding="utf-8")
    data = path.read_bytes()
    with pytest.raises(CampaignCorrupt) as err:
        Store.open(path)
    assert err.value.backups and err.value.backups[0].name in str(err.value)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    for argv in (["party", "list"], ["--view"], []):
        code, said = run_cli(capsys, [*argv, "--campaign", str(path)])
        assert code == 1 and err.value.backups[0].name in said, argv
    assert path.read_bytes() == data


A_READABLE_HOSTILE_FILE_LOADS_CLEAN_AND_UNCHANGED = list(READ)


def test_a_readable_hostile_file_loads_clean_and_unchanged(tmp_path, capsys) -> None:
    def check(case) -> None:
        folder = fresh_folder(tmp_path)  # a folder of its own, as its item had
        path, data = write_case(folder, READ[case])
        with Store.open(path) as store:
            texts = [store.campaign.name] + [c.name + c.notes for c in store.characters()]
            texts += [s.name for c in store.characters() for s in c.skills]
        assert not any("\x1b" in t or "\x9b" in t for t in texts)
        code, said = run_cli(capsys, ["party", "list", "--campaign", str(path)])
        assert code == 0 and no_traceback(said)
        assert path.read_bytes() == data  # reading cleans in memory; only a change writes

    assert_every_case(A_READABLE_HOSTILE_FILE_LOADS_CLEAN_AND_UNCHANGED, check, star=False)


def every_read_case(tmp: Path) -> tuple[Path, bytes]:
    """Write one campaign file holding the hostile values of every :data:`READ` case at
    once (each case changes its own field: the names, the notes, a skill, the extras, the
    history); return its path and bytes."""
    tables = demo_tables()
    data = b""
    for make in READ.values():
        data = make(tables)  # each ``edit`` changes the tables in place, then writes them all
    path = tmp / "campaign.json"
    path.write_bytes(data)
    return path, data


def test_the_file_of_every_read_case_holds_each_case() -> None:
    """The one file the app and the view open holds every readable hostile value: each
    case's own file differs from the demo campaign, and each of those changes is in it."""
    demo = demo_tables()
    with tempfile.TemporaryDirectory() as tmp:
        _, every = every_read_case(Path(tmp))
    combined = json.loads(every)
    for case, make in READ.items():
        alone = json.loads(make(demo_tables()))
        assert alone != demo, case
        changed = 0
        for table, docs in alone.items():
            for key, doc in docs.items():
                before = demo[table].get(key, {})
                for field, value in doc.items():
                    if value != before.get(field):  # what this case changes …
                        changed += 1
                        assert combined[table][key][field] == value, (case, table, field)
        assert changed, case  # … is in the file the app and the view open


async def test_read_files_run_in_the_app_and_the_view(tmp_path) -> None:
    """One run of the real app and one of the view over a file holding every readable
    hostile value (:data:`READ`): drawn, nothing raised, the file unchanged.

    Replaces the pilot test
    `tests/store/test_broken_files.py::test_read_files_run_in_the_app_and_the_view[<case>]`
    as it was, parametrised over the six files (an app run and a view run each, twelve
    apps): the same hostile values are now on screen together, in one app and one view.
    Each file alone still goes through the store and the CLI in
    ``test_a_readable_hostile_file_loads_clean_and_unchanged``."""
    from tests.conftest import frozen_clock
    from tui.app import make_app
    from tui.view import make_view

    path, data = every_read_case(tmp_path)
    app = make_app(path, clock=frozen_clock, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down", "up")  # highlight: draws each sheet
        await pilot.pause()
        assert app.is_running
    view = make_view(path)
    async with view.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert view.is_running
    assert path.read_bytes() == data


# -- generated broken documents ------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda kids: (
        st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=5), kids, max_size=3)
    ),
    max_leaves=6,
)
FIELDS = st.sampled_from(
    ["id", "name", "kind", "qualities", "skills", "weapons", "fate", "wounds", "notes", "extra"]
)


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(field=FIELDS, value=JSON, which=st.integers(0, 6), inner=st.booleans())
def test_a_generated_broken_character_is_read_or_refused_in_russian(
    tmp_path_factory, field, value, which, inner
) -> None:
    """Any value in any field: the store reads it and every renderer copes, or refuses it
    with a Russian message; nothing else is raised and the file is not changed."""
    from tui.bridge import sheets

    t = demo_tables()
    doc = list(t["characters"].values())[which]
    target = doc.get(field)
    if inner and isinstance(target, dict) and target:
        target[next(iter(target))] = value  # one quality, one wound count, one extra
    elif inner and isinstance(target, list) and target:
        target[0] = value
    else:
        doc[field] = value
    path = tmp_path_factory.mktemp("gen") / "c.json"
    data = json.dumps(t, ensure_ascii=False).encode()
    path.write_bytes(data)
    try:
        store = Store.open(path, read_only=True)
    except StoreError as err:
        assert CYRILLIC.search(str(err)) and "повреждён" in str(err)
    else:
        system = store.campaign.system
        for c in store.characters():
            sheets.row(system, c)
            sheets.sheet_text(system, c)
            sheets.track_of(c)
    assert path.read_bytes() == data


def test_a_journal_line_nested_100000_deep_is_skipped(tmp_path, capsys) -> None:
    """The Журнал is read line by line; a hostile line is skipped, the others are kept."""
    path = tmp_path / "c.json"
    Store.open(path).close()
    good = {"id": "e1", "at": "2026-11-29T20:00:00+03:00", "kind": "roll", "text": "2d6 = 7"}
    deep = b"[" * 100_000 + b"]" * 100_000
    nested_doc = json.dumps({**good, "id": "e2", "data": nested(200)}).encode()
    log = path.with_name("c.log.jsonl")
    log.write_bytes(deep + b"\n" + nested_doc + b"\n" + json.dumps(good).encode() + b"\n")
    data = log.read_bytes()
    with Store.open(path, read_only=True) as store:
        assert [e.id for e in store.log()] == ["e1"]
    code, said = run_cli(capsys, ["log", "--campaign", str(path)])
    assert code == 0 and "2d6 = 7" in said and no_traceback(said)
    assert log.read_bytes() == data


def test_a_change_the_schema_refuses_is_not_called_a_damaged_file(tmp_path, capsys) -> None:
    """A value out of range from the CLI is refused as a change; the file stays as it was."""

    from tui.store import ChangeRefused

    path = tmp_path / "c.json"
    Store.open(path).close()
    data = path.read_bytes()
    code, said = run_cli(
        capsys, ["party", "add", "Волк", "--set", "fate=1000", "--campaign", str(path)]
    )  # the form's range refuses it before the store is asked (a bad argument: exit 2)
    assert code == 2 and "Судьба: Нужно число от 0 до 10" in said
    assert "повреждён" not in said and path.read_bytes() == data
    with Store.open(path) as store:
        c = store.characters()[0]
        with pytest.raises(ChangeRefused, match="wounds.light"):
            store.upsert_character(c.edit_sheet(DrevoSheet, wounds={"light": -1}))
        other = Store.open(path)  # a second kubik writes first: the file is not the one known
        other.rename("Другое имя")
        other.close()
        with pytest.raises(ChangeRefused, match="поле fate"):
            store.upsert_character(c.edit_sheet(DrevoSheet, fate=-5))
    assert Store.open(path, read_only=True).campaign.name == "Другое имя"


async def test_a_saved_fight_in_an_unknown_phase_then_a_broken_file_swapped_in(tmp_path) -> None:
    """A saved fight in an unknown phase is named when the Бой tab opens, not fatal; then JSON
    nested 100,000 deep, swapped in under the running app: a message, no crash, and a change
    is refused (the file is not overwritten).

    Replaces the pilot tests
    `tests/store/test_broken_files.py::test_a_saved_fight_in_an_unknown_phase_is_named_not_fatal`
    and `tests/store/test_broken_files.py::test_a_broken_file_swapped_in_while_the_app_runs`
    (each opened the real app on a demo campaign of its own), with each of their asserts: the
    file swapped in now replaces the campaign with the damaged fight."""
    from tests.conftest import frozen_clock
    from tui.app import make_app

    path = tmp_path / "c.json"
    with Store.open(path) as store:
        store.put_doc("encounter", {"phase": 5}, label="x")  # the shape is right, the phase not
    app = make_app(path, clock=frozen_clock, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        await pilot.pause()
        assert app.is_running, "the Бой tab with a damaged fight"
        assert any("бой повреждён" in str(n.message) for n in app._notifications), "named"

        await pilot.press("1")  # the party tab, where «+» is a change
        deep = b"[" * 100_000 + b"]" * 100_000
        path.write_bytes(deep)
        for _ in range(100):  # the store's timer reads it (within 5 s; it took a fixed 0.8 s)
            if any("глубоко" in str(n.message) for n in app._notifications):
                break
            await pilot.pause(0.05)
        assert app.is_running, "a file swapped in: no crash"
        await pilot.press("+")  # a change: refused, the file is not overwritten
        await pilot.pause()
        assert app.is_running and path.read_bytes() == deep, "the change refused"
        assert any("глубоко" in str(n.message) for n in app._notifications), "said why"


ENCOUNTER_FIELDS = st.sampled_from(
    ["round", "phase", "sides", "combatants", "declarations", "resolved", "carried", "initiative"]
)


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(fields=st.dictionaries(ENCOUNTER_FIELDS, JSON, max_size=4))
def test_a_generated_saved_fight_is_read_or_refused(tmp_path_factory, fields) -> None:
    """Any saved fight: refused in Russian by the store, or drawn by the players' view and
    rebuilt by the rules (or refused by them, which the Бой tab turns into a notice)."""
    from rules.encounter import Encounter
    from rules.errors import RulesError
    from tui.view import combat_text

    t = demo_tables()
    t["docs"] = {"1": {"name": "encounter", "value": fields}}
    path = tmp_path_factory.mktemp("fight") / "c.json"
    path.write_bytes(json.dumps(t, ensure_ascii=False).encode())
    try:
        store = Store.open(path, read_only=True)
    except StoreError as err:
        assert CYRILLIC.search(str(err)) and "encounter" in str(err)
        return
    doc = store.get_doc("encounter")
    characters = {c.id: c for c in store.characters()}
    combat_text(doc, characters)
    try:
        Encounter.from_dict(doc)
    except (RulesError, TypeError, KeyError, ValueError):
        pass  # what the Бой tab catches
