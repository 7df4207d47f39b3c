"""The Журнал's newest entries are read from the end of the file, and they are exactly the
newest of the whole file read in order (issue 35: a 100,000-entry Журнал was read whole, a
second and ~200 MB, before the first screen, which shows a few dozen entries)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hypo import examples
from tui.store import journal as journal_module
from tui.store.journal import Journal, entry_line
from tui.store.models import LogEntry

LINES = st.lists(
    st.one_of(
        st.tuples(st.just("entry"), st.integers(0, 30), st.text(max_size=80)),
        st.tuples(st.just("garbage"), st.just(0), st.text(max_size=40)),
        st.tuples(st.just("blank"), st.just(0), st.just("")),
    ),
    max_size=40,
)


def build(lines, torn: str) -> bytes:
    out = b""
    for what, n, text in lines:
        if what == "entry":  # ids repeat now and then: a foreign writer's copy
            entry = LogEntry(f"e{n}", "2026-01-01T10:00:00", "roll", None, text or "x")
            out += entry_line(entry)
        elif what == "garbage":
            out += (json.dumps(text)[:-1] + "\n").encode()  # a line that is no entry
        else:
            out += b"\n"
    return out + torn.encode()  # a line still being written


@settings(max_examples=examples(60), deadline=None)
@given(LINES, st.sampled_from(["", '{"id": "torn', "x" * 70]), st.integers(0, 45))
def test_the_tail_is_the_newest_of_the_whole(tmp_path_factory, lines, torn, count) -> None:
    path = tmp_path_factory.mktemp("j") / "c.log.jsonl"
    path.write_bytes(build(lines, torn))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(journal_module, "_CHUNK", 17)  # many blocks, lines across them
        lazy = Journal(path)
        lazy.refresh()
        tail = lazy.tail(count)
    whole = Journal(path)
    whole.refresh()
    expected = whole.entries()[-count:] if count else []
    assert [(e.id, e.text) for e in tail] == [(e.id, e.text) for e in expected]


def test_the_tail_follows_refresh_not_the_file(tmp_path) -> None:
    """As before: what another kubik appends shows after the next refresh."""
    path = tmp_path / "c.log.jsonl"
    first = LogEntry("a", "2026-01-01T10:00:00", "roll", None, "раз")
    path.write_bytes(entry_line(first))
    journal = Journal(path)
    assert journal.refresh() is True
    assert [e.id for e in journal.tail(5)] == ["a"]
    with path.open("ab") as fh:
        fh.write(entry_line(LogEntry("b", "2026-01-01T10:01:00", "roll", None, "два")))
    assert [e.id for e in journal.tail(5)] == ["a"]
    assert journal.refresh() is True and journal.refresh() is False
    assert [e.id for e in journal.tail(5)] == ["a", "b"]
    assert [e.id for e in journal.entries()] == ["a", "b"]  # the whole, from now on
    assert [e.id for e in journal.tail(1)] == ["b"]


def test_a_store_reads_no_entry_until_one_is_asked_for(tmp_path) -> None:
    from tui.store import Store
    from tui.store.journal import journal_path, write_journal

    path = tmp_path / "c.json"
    Store.open(path).close()
    write_journal(
        journal_path(path),
        (LogEntry(f"e{i}", "2026-01-01T10:00:00", "roll", None, f"{i}") for i in range(500)),
    )
    store = Store.open(path)
    assert store._journal._entries == [] and not store._journal._whole
    assert [e.text for e in store.log(limit=3)] == ["499", "498", "497"]
    assert not store._journal._whole
    assert len(store.log()) == 500 and store._journal._whole
    store.close()


def test_what_the_tail_returns_is_the_callers(tmp_path) -> None:
    """Store.log reverses what it gets: the cached tail must not be that list."""
    path = tmp_path / "c.log.jsonl"
    path.write_bytes(b"".join(entry_line(LogEntry(i, "t", "roll", None, i)) for i in "abc"))
    journal = Journal(path)
    journal.refresh()
    journal.tail(3).reverse()
    assert [e.id for e in journal.tail(3)] == ["a", "b", "c"]
    assert [e.id for e in journal.tail(1)] == ["c"]
