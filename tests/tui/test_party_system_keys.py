"""A system's own keys of the Партия tab come from its package (``System.party_keys``): the
party pane names no system, and a campaign without such keys has none of them."""

from __future__ import annotations

from textual.binding import Binding

from rules import systems
from tui import registry
from tui.widgets.party.pane import PartyPane, party_pane


def _ids(bindings: list[object]) -> list[str | None]:
    return [b.id if isinstance(b, Binding) else None for b in bindings]


def test_a_system_without_party_keys_gets_the_plain_pane() -> None:
    plain = [name for name in systems.names() if registry.get(name).party_keys is None]
    assert plain  # IDE4, Старатели, Мир Тьмы
    assert all(party_pane(name) is PartyPane for name in plain)
    assert "party-wound" not in _ids(PartyPane.BINDINGS)


def test_a_systems_keys_follow_the_save_roll_key_in_the_panes_bindings() -> None:
    """The footer and «?» list Древо's wounds and Судьба where the pane listed them before
    they moved to Древо's package: right after «b» (save a roll)."""
    keys = registry.load(registry.get("drevo").party_keys or "")
    pane = party_pane("drevo")
    assert issubclass(pane, PartyPane) and issubclass(pane, keys)
    ids = _ids(pane.BINDINGS)
    at = ids.index(PartyPane.SYSTEM_KEYS_AFTER)
    assert ids[at + 1 : at + 1 + len(keys.BINDINGS)] == _ids(keys.BINDINGS)
    assert [i for i in ids if i not in _ids(keys.BINDINGS)] == _ids(PartyPane.BINDINGS)
    merged = pane._merged_bindings
    assert merged is not None and "w" in merged.key_to_bindings
