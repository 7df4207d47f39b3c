"""The one sanitiser: no control code a person or a file wrote survives it (issue 15)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tui.sanitize import clean, clean_json, json_may_hold_controls, plain, safe_text
from tui.store import Store

OSC52 = "\x1b]52;c;cm0gLXJmIH4gIyA=\x07"
HOSTILE = [OSC52, "\x1b]2;pwned\x07", "\x1b[2J\x1b[H", "\x1bP+q544e\x1b\\", "\x9b31m", "\x7f"]


def has_control(text: str) -> bool:
    return any((ord(ch) < 0x20 and ch not in "\n\t") or 0x7F <= ord(ch) <= 0x9F for ch in text)


@given(st.text())
def test_no_control_character_but_newline_and_tab_survives(text: str) -> None:
    out = clean(text)
    assert not has_control(out)
    assert clean(out) == out  # idempotent
    assert out.count("\n") == text.count("\n") and out.count("\t") == text.count("\t")


def test_escape_sequences_are_shown_not_sent() -> None:
    assert clean(OSC52) == "␛]52;c;cm0gLXJmIH4gIyA=␇"
    assert clean("a\u202eb") == "ab"  # a right-to-left override reorders what a name says
    assert clean("Ярослав\tКречет\n") == "Ярослав\tКречет\n"


@given(st.recursive(st.text(), lambda kids: st.lists(kids) | st.dictionaries(st.text(), kids)))
def test_every_string_of_a_json_value_is_cleaned(value) -> None:
    def strings(v):
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            for k, x in v.items():
                yield k
                yield from strings(x)
        elif isinstance(v, list):
            for x in v:
                yield from strings(x)

    assert not any(has_control(s) for s in strings(clean_json(value)))
    for raw in (json.dumps(value).encode(), json.dumps(value, ensure_ascii=False).encode()):
        if not json_may_hold_controls(raw):  # the cheap pre-check never misses one
            assert clean_json(value) == value


def test_plain_and_safe_text_carry_no_markup_and_no_escape() -> None:
    from textual.content import Content

    shown = Content.from_markup(plain(f"[b]{OSC52}[/]")).plain
    assert "\x1b" not in shown and shown.startswith("[b]␛")
    assert safe_text("[reverse]x").plain == "[reverse]x" and not safe_text("[b]x").spans


def test_a_file_with_escape_codes_loads_clean_and_writes_clean(tmp_path) -> None:
    path = tmp_path / "c.json"
    store = Store.open(path)
    first = store.characters()[0]
    store.close()
    raw = path.read_bytes().decode()
    raw = raw.replace(json.dumps(first.name, ensure_ascii=False)[1:-1], "\\u001b]2;pwned\\u0007")
    path.write_text(raw, encoding="utf-8")
    store = Store.open(path)
    names = [c.name for c in store.characters()]
    assert "␛]2;pwned␇" in names and not any(has_control(n) for n in names)
    import dataclasses

    c = store.characters()[0]
    store.upsert_character(dataclasses.replace(c, notes=f"заметка {OSC52}"))  # a form's text
    store.rename(f"Кампания {HOSTILE[1]}")
    store.close()
    text = path.read_text(encoding="utf-8")
    assert "\\u001b" not in text and "\x1b" not in text and "␛]52" in text


def test_export_and_import_carry_no_control_code(tmp_path) -> None:
    """`kubik export` / `import` carried such names through."""
    source = tmp_path / "c.json"
    Store.open(source).close()
    out = tmp_path / "export.json"
    with Store.open(source) as store:
        store.export_json(out)
    data = json.loads(out.read_text(encoding="utf-8"))
    data["campaign"]["name"] = f"Кампания{OSC52}"
    data["characters"][0]["name"] = f"Волк{HOSTILE[1]}"
    data["log"] = [
        {"id": "e1", "at": "2026-01-01T10:00:00", "kind": "roll", "actor": OSC52, "text": CSI}
        for CSI in HOSTILE[2:3]
    ]
    out.write_text(json.dumps(data), encoding="utf-8")  # \u001b escapes, as JSON writes them
    target = tmp_path / "imported.json"
    campaign = Store.import_json(out, target)
    assert not has_control(campaign.name)
    with Store.open(target) as store:
        texts = [store.campaign.name, *(c.name for c in store.characters())]
        texts += [e.text + (e.actor or "") for e in store.log()]
        again = tmp_path / "again.json"
        store.export_json(again)
    assert texts and not any(has_control(t) for t in texts)
    assert "\\u001b" not in again.read_text(encoding="utf-8")
    assert "\\u001b" not in target.read_text(encoding="utf-8")
