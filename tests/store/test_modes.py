"""Private by default: 0700 folders, 0600 files, a GM's chmod kept, symlinks written through."""

from __future__ import annotations

import dataclasses
import os
import stat
from pathlib import Path

import pytest

from tui.store import LogEntry, Store, new_id

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(autouse=True)
def usual_umask():
    old = os.umask(0o022)  # what most systems use: it made every file 0644 before
    yield
    os.umask(old)


def change(store: Store, note: str) -> None:
    c = store.characters()[0]
    store.upsert_character(dataclasses.replace(c, notes=note))


def test_everything_kubik_writes_is_private(tmp_path) -> None:
    path = tmp_path / "data" / "kubik" / "campaign.json"
    store = Store.open(path)
    change(store, "раз")
    change(store, "два")
    store.append_log(LogEntry(new_id(), "2026-01-01T10:00:00", "roll", None, "2d6 = 7"))
    export = tmp_path / "export.json"
    store.export_json(export)
    store.close()
    assert mode(path.parent) == 0o700  # the data folder
    files = [path, path.with_name("campaign.log.jsonl"), Path(f"{path}.lock"), export]
    backups = sorted(path.with_name("campaign.backups").iterdir())
    assert backups and mode(path.with_name("campaign.backups")) == 0o700
    assert {str(p): mode(p) for p in files + backups} == {str(p): 0o600 for p in files + backups}
    imported = tmp_path / "imported" / "c.json"
    Store.import_json(export, imported)
    assert mode(imported) == 0o600 and mode(imported.parent) == 0o700


def test_a_mode_the_gm_set_survives_every_write(tmp_path) -> None:
    path = tmp_path / "c.json"
    store = Store.open(path)
    os.chmod(path, 0o640)  # shared with a co-GM's group
    change(store, "раз")
    store.undo()
    assert mode(path) == 0o640
    os.chmod(path, 0o600)
    change(store, "два")
    assert mode(path) == 0o600
    store.close()


def test_a_symlinked_campaign_is_written_through(tmp_path) -> None:
    """A symlinked campaign was replaced by a plain file on the first write."""
    real = tmp_path / "sync" / "real.json"
    real.parent.mkdir()
    Store.open(real).close()
    link = tmp_path / "campaign.json"
    link.symlink_to(real)
    store = Store.open(link)
    change(store, "через ссылку")
    store.close()
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "через ссылку" in real.read_text(encoding="utf-8")
    assert [c.notes for c in Store.open(real, read_only=True).characters()].count("через ссылку")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    # The link and the target are one campaign: one lock, one Журнал, one backups folder.
    assert Store.open(link).path == real
    assert real.with_name("real.backups").is_dir() and not (tmp_path / "campaign.backups").exists()


def test_every_folder_kubik_creates_on_the_way_is_private(tmp_path) -> None:
    """Issue 35: a new nested campaign path left its middle folder 0755 (``mkdir(parents=True)``
    gives only the last folder the mode)."""
    path = tmp_path / "games" / "2026" / "zastava" / "c.json"
    there = mode(tmp_path)
    Store.open(path).close()
    made = [tmp_path / "games", tmp_path / "games" / "2026", path.parent]
    assert {str(p): mode(p) for p in made} == {str(p): 0o700 for p in made}
    assert mode(tmp_path) == there  # a folder that was there keeps its mode
    exported = tmp_path / "out.json"
    with Store.open(path) as store:
        store.export_json(exported)
    imported = tmp_path / "other" / "deep" / "c.json"
    Store.import_json(exported, imported)
    assert mode(tmp_path / "other") == 0o700 and mode(imported.parent) == 0o700
