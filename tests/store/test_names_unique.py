"""One name, one character (letter case aside), as the app's form and ``party add`` have it —
now also for a file that repeats a name and for two writers adding one name at once (issue 35:
a file with two «Богдан» loaded as it was; two concurrent ``party add`` of one name both
passed, the check ran outside the store's lock)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rules.drevo.sheet import DrevoSheet
from tui.cli import party as cli_party
from tui.store import ChangeRefused, Character, Store, new_id


def pc(name: str) -> Character:
    return Character(new_id(), name, "pc", {}, (), ())


def names(store: Store) -> list[str]:
    return sorted(c.name for c in store.characters())


def with_repeated_names(path) -> bytes:
    """The demo campaign with «Богдан Сыч» twice more («богдан сыч» too), as a hand edit
    or another program may leave it."""
    Store.open(path).close()
    tables = json.loads(path.read_text(encoding="utf-8"))
    characters = tables["characters"]
    bogdan = next(d for d in characters.values() if d["name"] == "Богдан Сыч")
    characters["90"] = {**bogdan, "id": "copy-1"}
    characters["91"] = {**bogdan, "id": "copy-2", "name": "богдан сыч"}
    characters["92"] = {**bogdan, "id": "copy-3", "name": "Богдан Сыч (2)"}
    data = json.dumps(tables, ensure_ascii=False).encode()
    path.write_bytes(data)
    return data


def test_a_file_that_repeats_a_name_loads_with_one_name_each(tmp_path) -> None:
    path = tmp_path / "c.json"
    data = with_repeated_names(path)
    viewed = Store.open(path, read_only=True)  # a reader renames in memory only
    bogdans = [n for n in names(viewed) if n.casefold().startswith("богдан сыч")]
    assert bogdans == ["Богдан Сыч", "Богдан Сыч (2)", "Богдан Сыч (3)", "богдан сыч (4)"]
    assert path.read_bytes() == data
    viewed.close()
    store = Store.open(path)  # a writer writes it so, the old version kept among the backups
    assert names(store) == names(Store.open(path, read_only=True))
    assert len({n.casefold() for n in names(store)}) == len(names(store))
    assert any(path.with_name("c.backups").iterdir())
    first = next(c for c in store.characters() if c.name == "Богдан Сыч (3)")
    store.upsert_character(first.edit_sheet(DrevoSheet, fate=1))  # no name changed: written
    store.close()


def test_a_second_writer_cannot_add_or_rename_to_a_name_the_party_has(tmp_path) -> None:
    path = tmp_path / "c.json"
    first, second = Store.open(path), Store.open(path)  # two kubiks, or two commands
    first.upsert_character(pc("Ян"))
    with pytest.raises(ChangeRefused, match="уже есть «Ян»"):
        second.upsert_character(pc("ян"))  # its own memory has no Ян yet: the lock decides
    milava = next(c for c in second.characters() if c.name == "Милава")
    with pytest.raises(ChangeRefused, match="уже есть «Ян»"):
        second.upsert_character(dataclasses.replace(milava, name="ЯН"))
    with pytest.raises(ChangeRefused, match="уже есть"):
        second.apply("Двое", upsert=[pc("Ива"), pc("ИВА")])
    second.upsert_character(dataclasses.replace(milava, name="Милава Ясная"))
    assert [n.casefold() for n in names(second)].count("ян") == 1
    first.close()
    second.close()


def test_two_party_adds_of_one_name_cannot_both_pass(tmp_path, capsys, monkeypatch) -> None:
    """The second command's check passes (nobody has the name yet), then the first one writes:
    the second is refused inside the lock, exit 1."""
    path = tmp_path / "c.json"
    Store.open(path).close()
    checked = cli_party._refuse_taken
    raced: list[int] = []

    def the_other_gets_in_first(store, name):
        checked(store, name)
        if not raced:
            raced.append(-1)  # once: the other command checks too, and finds the name free
            raced[0] = cli_party.party(["add", name, "--campaign", str(path)])

    monkeypatch.setattr(cli_party, "_refuse_taken", the_other_gets_in_first)
    with pytest.raises(SystemExit) as exit_:
        cli_party.party(["add", "Ян", "--campaign", str(path)])
    assert raced == [0] and exit_.value.code == 1
    assert "уже есть «Ян»" in capsys.readouterr().err
    with Store.open(path, read_only=True) as store:
        assert names(store).count("Ян") == 1
