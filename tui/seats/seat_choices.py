"""The choices the rules give a player, one key each, and the declaration: each is a request
the seat sends for the GM to accept, edit or refuse.

Which apply now: the system's kinds (:func:`~tui.seats.protocol.system_kinds`), a character of
the seat's, and for a choice about a check only what the GM's open check offers at its stage.
A request about that check names it, so the GM refuses it once it is rolled or closed.
"""

from __future__ import annotations

from typing import Any

from tui import registry
from tui.numbers import read_typed_whole
from tui.seats import protocol as proto

#: The choices of each kind: (key, action, label) — one key per request.
CHOICE_KEYS = {
    "fate": [("f", "fate('before')", "Судьба +4"), ("p", "fate('shift')", "Судьба ±")],
    "energy": [("e", "energy('before')", "Энергия до"), ("E", "energy('after')", "Энергия после")],
    "expanded": [("x", "expanded", "Развёрнутая")],
    "reroll": [("r", "reroll", "Переброс")],
    "risk": [("k", "risk", "Риск")],
    "note": [("n", "note", "Заметка ведущему")],
}


class ChoicesMixin:
    """``SeatApp``'s choice keys and declaration (mixed into ``SeatApp``)."""

    # Set by SeatApp.__init__.
    state: dict[str, Any]
    # Provided by SeatApp, LinkMixin and Textual's App.
    mine: Any
    _declaring: Any
    _declaration_form: Any
    send: Any
    notify: Any
    query_one: Any
    push_screen: Any

    def _choice_applies(self, action: str, parameters: tuple[object, ...]) -> bool:
        """Return whether the choice ``action`` may be asked for now."""
        kinds = proto.system_kinds(self.state.get("system", ""))
        kind = {"fate": "fate", "energy": "energy", "expanded": "expanded", "reroll": "reroll",
                "risk": "risk", "note": "note"}.get(action)  # fmt: skip
        if kind not in kinds or not self.mine():
            return False
        system = self.state.get("system", "")
        if kind in proto.check_kinds(system) and kind not in registry.get(system).fight_kinds:
            check = self.state.get("check")  # only what the GM's open check offers now
            if not check or kind not in check.get("kinds", ()):
                return False
            if kind == "energy":  # before the roll, or after it: the check's stage says
                return (parameters[:1] == ("before",)) == (check.get("stage") == "before")
            return True
        return True

    def action_declare(self) -> None:
        offer = self.state.get("declare")
        if not offer or not self._declaring():
            return
        form = self._declaration_form()
        if form is None:
            return
        from rules.errors import RulesError

        try:
            d = form.declaration(offer["actor"])
        except RulesError as err:
            form.show_problem(str(err), False)
            return
        problem, _ = form.problem()
        if problem:  # the same check as the GM's form; only the GM may make an exception
            form.show_problem(problem + " (исключение — только ведущий)", False)
            return
        payload = {
            "action": d.action,
            "target": d.target,
            "weapon": d.weapon,
            "distance": d.distance,
            "turns": d.turns,
            "note": d.note,
        }
        self.send("declare", offer["actor"], payload)

    def _who(self) -> str | None:
        mine = self.mine()
        offer = self.state.get("declare")
        if offer:
            return str(offer["actor"])
        check = self.state.get("check")
        if check:
            return str(check["character"])
        ids = {c.id for c in mine}
        fighting = [cid for cid in self.state.get("exchange") or () if cid in ids]
        if fighting:  # the fight's exchange on turn: the seat's fighter in it
            return str(fighting[0])
        return mine[0].id if mine else None

    def _about_check(self, kind: str, who: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Name the GM's open check in a request about it (the GM refuses it once that check
        is rolled or closed)."""
        check = self.state.get("check")
        kinds = proto.check_kinds(self.state.get("system", ""))
        if check and check["character"] == who and kind in kinds:
            return {**payload, "check": check["id"]}
        return payload

    def action_fate(self, use: str) -> None:
        who = self._who()
        if not who:
            return
        if use == "before":
            self.send("fate", who, self._about_check("fate", who, {"use": use}))
            return
        from tui.widgets.common.prompt import TextPrompt

        def typed(text: str | None) -> None:  # the shift's points, signed
            if text is None:
                return
            points = read_typed_whole(text) or 0
            if not 1 <= abs(points) <= 3:
                self.notify("Сдвиг Судьбой: от −3 до +3, не 0.", severity="error", markup=False)
                return
            self.send("fate", who, self._about_check("fate", who, {"use": use, "points": points}))

        self.push_screen(
            TextPrompt("Сдвиг Судьбой после броска: очки", "например: +1 или −2"), typed
        )

    def _ask_for(self, kind: str) -> None:
        """Send a request of ``kind`` that carries nothing but the check it is about."""
        who = self._who()
        if who:
            self.send(kind, who, self._about_check(kind, who, {}))

    def action_reroll(self) -> None:
        self._ask_for("reroll")

    def action_expanded(self) -> None:
        self._ask_for("expanded")

    def _ask_number(self, title: str, kind: str, extra: dict[str, Any]) -> None:
        from tui.widgets.common.prompt import TextPrompt

        who = self._who()
        if not who:
            return

        def typed(text: str | None) -> None:
            if text is None:
                return
            amount = read_typed_whole(text)
            if amount is None:
                self.notify("Введите целое число.", severity="error", markup=False)
                return
            self.send(kind, who, self._about_check(kind, who, {**extra, "amount": amount}))

        self.push_screen(TextPrompt(title, "например: 2"), typed)

    def action_energy(self, when: str) -> None:
        title = f"Энергия {proto.ENERGY_WHEN[when]}: сколько кубов (номинала)"
        self._ask_number(title, "energy", {"when": when})

    def action_risk(self) -> None:
        """Ask for Risk on the failed check (the GM names its price)."""
        self._ask_for("risk")

    def action_note(self) -> None:
        from tui.widgets.common.prompt import TextPrompt

        who = self._who()
        if not who:
            return

        def typed(text: str | None) -> None:
            if text:
                self.send("note", who, {"text": text})

        self.push_screen(TextPrompt("Заметка ведущему", "например: Милава ищет следы"), typed)
