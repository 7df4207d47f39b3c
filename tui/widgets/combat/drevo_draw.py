"""Drawing the Бой tab from the stored fight: the phase shown, the status line (round, order,
initiative, a write that waits or failed) and the exchange with its odds."""

from __future__ import annotations

from typing import Any

from textual.containers import VerticalScroll
from textual.widgets import Static

from rules import drevo
from tui.present.combat import declaration_text
from tui.present.rolls import fudge_dice, plain, signed
from tui.store import Character
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.text import show_markup


class ExchangeView(Static, can_focus=True):
    """The current exchange: who, with what, the odds, then the dice and the damage."""


class FightDrawing:
    """Redrawing the pane from the fight (mixed into ``CombatPane``)."""

    # Provided by CombatPane.
    encounter: Any
    characters: dict[str, Character]
    app: Any

    def _redraw(self) -> None:
        enc = self.encounter
        for part in ("setup", "declare", "resolve"):
            self.query_one(f"#combat-{part}").display = enc.phase == part
        self._draw_status()
        if enc.phase == "setup":
            self._draw_roster()
        elif enc.phase == "declare":
            self._draw_order()
        else:
            self._draw_exchange()
        self._drawn_phase = enc.phase
        self.refresh_bindings()

    def _draw_status(self) -> None:
        enc = self.encounter
        status = self.query_one("#combat-status", Static)
        waiting = self._pending is not None and self._waiting
        if waiting or self._failed:
            # Where the pane's write stands: the store (and the screen) change only once saved.
            show_markup(
                status,
                f"[$warning]Сохраняется: «{plain(self._pending or '')}»…[/]"
                if waiting
                else f"[$error]{plain(self._failed)}[/]",
            )
            return
        if enc.phase == "setup":
            show_markup(
                status,
                "[b]Подготовка боя.[/b] Пробел — сторона участника, a — новый НИП, "
                "i — бросить инициативу (4dF за сторону), z — засада (порядок задаёт ведущий).",
            )
            return
        how = "; ".join(
            f"{i['side']} {' → '.join(fudge_dice(tuple(d), markup=True) for d in i['rolls'])}"
            f" = {signed(sum(i['rolls'][-1]))}"
            if i.get("rolls")
            else f"{i['side']}: засада"
            for i in enc.initiative
        )
        phase = "заявки" if enc.phase == "declare" else "броски"
        show_markup(
            status,
            f"[b]Раунд {enc.round}[/b], {phase}. Порядок: {' → '.join(enc.side_order())}\n"
            f"[dim]Инициатива: {how}[/dim]",
        )

    def _draw_exchange(self) -> None:
        view = self.query_one(ExchangeView)
        odds = self.query_one("#combat-odds", OddsBars)
        pending = self.encounter.pending()
        self.query_one("#combat-other").display = bool(pending) and not self.drevo
        if pending and not self.drevo:
            odds.display = False
            self._draw_other(pending[0])
            return
        if not pending:
            odds.display = False
            lines = (
                self.round_summary()
                if self.drevo
                else [f"[b]Раунд {self.encounter.round} разрешён.[/b]"]
            )
            lines.append("n — следующий раунд (порядок заявок меняется), x — завершить бой.")
            show_markup(view, "\n".join(lines))
            self._show_the_end()
            return
        pairing = pending[0]
        number, total = self._number()
        names = self._names()
        header = (
            f"[b]Схватка {number} из {total}:[/b] "
            f"{plain(declaration_text(pairing.attack, names))} "
            f"({plain(names.get(pairing.attack.actor, '?'))})"
        )
        if pairing.answer is not None:
            header += f"; ответ: {plain(declaration_text(pairing.answer, names))}"
        lines, plan, fate = self.exchange_lines()
        odds.display = plan is not None
        if plan is not None:
            odds.show(
                drevo.exchange_odds(plan, fate),
                drevo.EXCHANGE_OUTCOME_NAMES,
                drevo.EXCHANGE_OUTCOMES[plan.kind],
            )
        show_markup(view, "\n".join([header, *lines]))
        self._show_the_end()

    def _show_the_end(self) -> None:
        """Scroll the exchange to its last lines (what Enter does next), once laid out."""
        box = self.query_one("#combat-resolve", VerticalScroll)
        self.call_after_refresh(box.scroll_end, animate=False, immediate=True)
