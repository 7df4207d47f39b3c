"""A seat's request about a character who has left the party (removed here, in another window
or by `kubik party remove`) is refused with the reason, so the GM's Ctrl+P list holds only what
can still be accepted (a playtest's leftover: the list kept «Милава: заметка» after she was
removed, and Enter on it could only fail)."""

from __future__ import annotations

from tests.seats.headless_gm import HeadlessGM


def test_a_removed_characters_pending_request_is_refused_with_the_reason(
    folder, campaign_path
) -> None:
    gm = HeadlessGM(folder, campaign_path)
    try:
        store, hub = gm.store, gm.hub
        chars = {c.name: c for c in store.characters()}
        milava, goran = chars["Милава"], chars["Горан Рябой"]
        gm.send(milava, "r-milava", "note", {"text": "след"})
        gm.send(goran, "r-goran", "note", {"text": "след"})
        assert {p.request.id for p in hub.pending()} == {"r-milava", "r-goran"}

        store.delete_character(milava.id)
        hub._changed()  # what the store's notice runs on the hub's loop
        assert [p.request.id for p in hub.pending()] == ["r-goran"]  # Горан's still waits
        gone = hub.requests["r-milava"]
        assert gone.status == "refused"
        assert gone.reason == "Персонажа больше нет в партии."
        assert any("больше нет в партии" in line for line in hub.log)

        store.undo()  # she is back: the refusal stands, as every decided request does
        hub._changed()
        assert hub.requests["r-milava"].status == "refused"
    finally:
        gm.close()
