"""The quick-roll bar: type ``4d6dl1``, ``10d10>=8 vs 3`` or a saved roll's name, press Enter.

The roll shows at once; its exact odds follow from a worker thread (a big expression may take
up to a second), so the UI never waits. Tab completes the names of the party's saved rolls
(the highlighted character's first); a saved roll logs under its character.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual import on, work
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from rules.errors import DiceSyntaxError, RulesError
from tui.present.rolls import number, plain, readings_text, roll_summary
from tui.services import lent
from tui.widgets.common.focus import focus_now
from tui.widgets.common.lazy import BuiltWhenShown
from tui.widgets.common.ordered_input import ReadyInput

if TYPE_CHECKING:
    from rules.dice import Expression, RollResult


@runtime_checkable
class Highlights(Protocol):
    """A pane with a highlighted character: the Партия tab's (the bar imports no tab)."""

    def highlighted_id(self) -> str | None: ...


class QuickRoll(BuiltWhenShown, Vertical):
    """A bar docked above the footer; Escape hides it."""

    BINDINGS = [
        # Shown on the key bar for the field (``ENTER_AS_FORM``): its Enter rolls.
        Binding("enter", "roll", "Бросить", id="quick-roll"),
        Binding("escape", "close", "Закрыть", id="quick-close"),
        Binding("tab", "complete", "Дополнить", id="quick-complete", tooltip="Сохранённый бросок"),
    ]

    # The services it uses (tui/services/lent.py).
    store = lent.store
    rng = lent.rng

    @dataclass
    class Rolled(Message):
        """A quick roll was made (``actor``: the character of a saved roll)."""

        result: RollResult
        actor: str | None = None
        text: str = ""

    # The field and its line are built when the bar is first shown (BuiltWhenShown): most
    # starts never open it, and a field is one of the costliest widgets of a start to style.

    def children_to_build(self) -> list[Input | Static]:
        return [
            ReadyInput(
                placeholder="Бросок: 4d6dl1, 10d10>=8, 2d6+3 # топор, имя броска",
                id="quick-input",
            ),
            Static("Enter — бросить, Tab — сохранённый бросок, Esc — закрыть.", id="quick-output"),
        ]

    def _show(self) -> None:
        """Show the bar, building its field and line the first time."""
        self.build()
        self.display = True

    def open(self) -> None:
        """Show the bar and focus its input."""
        self._show()
        focus_now(self.query_one("#quick-input", Input))

    async def action_roll(self) -> None:
        """Roll what the field holds (as its Enter does)."""
        await self.query_one("#quick-input", Input).action_submit()

    async def action_close(self) -> None:
        """Hide the bar and give focus back to the tab."""
        self.display = False
        await self.app.run_action("focus_tab")

    # -- saved rolls ------------------------------------------------------------------------------

    def _saved(self) -> list[tuple[Any, str, str]]:
        """Every saved roll of the party as (character, name, notation), highlighted first."""
        characters = list(self.store.characters())
        try:  # by the type's name: the bar imports no tab
            pane = self.app.query_one("PartyPane")
            first = pane.highlighted_id() if isinstance(pane, Highlights) else None
        except Exception:  # noqa: BLE001 - no party tab
            first = None
        characters.sort(key=lambda c: c.id != first)
        return [(c, name, notation) for c in characters for name, notation in c.rolls]

    def action_complete(self) -> None:
        """Complete the typed text to a saved roll's name; Tab again for the next one."""
        field = self.query_one("#quick-input", Input)
        output = self.query_one("#quick-output", Static)
        cycle = getattr(self, "_cycle", None)
        if cycle is not None and field.value == cycle[0][cycle[1]][1]:
            matches, index = cycle[0], (cycle[1] + 1) % len(cycle[0])
        else:
            names = [(c, name) for c, name, _ in self._saved()]
            prefix = field.value.strip().casefold()
            matches = [(c, n) for c, n in names if n.casefold().startswith(prefix)]
            index = 0
            if not matches:
                output.update(
                    "Сохранённых бросков с таким началом нет — их добавляют в «Партии» клавишей b."
                    if names
                    else "Сохранённых бросков нет — добавьте их в «Партии» клавишей b."
                )
                return
        self._cycle = (matches, index)
        character, name = matches[index]
        field.value = name
        field.cursor_position = len(name)
        notation = character.saved_roll(name) or ""
        more = f" · Tab — ещё {len(matches) - 1}" if len(matches) > 1 else ""
        output.update(
            f"[b]{plain(name)}[/b] ({plain(character.name)}): {plain(notation)}{more}"
            " · Enter — бросить"
        )

    def roll_saved(self, character: Any, name: str) -> None:
        """Show the bar and roll ``character``'s saved roll ``name``."""
        notation = character.saved_roll(name)
        if notation is None:
            return
        self._show()
        self._roll(notation, actor=character.name, title=name)

    # -- rolling ----------------------------------------------------------------------------------

    @on(Input.Submitted, "#quick-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        output = self.query_one("#quick-output", Static)
        text = event.value.strip()
        if not text:
            output.update("Введите выражение, например [b]4d6dl1[/b] или [b]10d10>=8[/b].")
            return
        for character, name, notation in self._saved():
            if name.casefold() == text.casefold():
                self._roll(notation, actor=character.name, title=name)
                return
        self._roll(text)

    def _roll(self, text: str, actor: str | None = None, title: str | None = None) -> None:
        from rules.dice import roll  # the dice parser loads on the first roll, not at start

        output = self.query_one("#quick-output", Static)
        try:
            result = roll(text, self.rng)
        except DiceSyntaxError as err:
            caret = " " * (err.position + 1) + "^"  # the input draws its text one cell in
            where = f"{plain(title)}: " if title else ""
            output.update(f"[$error]{where}{plain(str(err))}[/]\n[$error]{caret}[/]")
            return
        except RulesError as err:
            output.update(f"[$error]{plain(str(err))}[/]")
            return
        summary = roll_summary(result)
        who = f"{actor}, {title} — " if actor and title else ""
        totals = " ".join(number(t) for t in result.totals)
        self._line = f"[b]Итог {totals}[/b] · {plain(who + summary)}"
        read = readings_text(result.expression)
        if read:  # «3d6++2»: say what was read, not just the result
            self._line += f"\n[$warning]{plain(read)}[/]"
        output.update(f"{self._line}\n[dim]Шансы считаются…[/dim]")
        self.post_message(self.Rolled(result, actor, who + summary if who else ""))
        self._odds(result.expression)

    @work(thread=True, exclusive=True, group="quick-odds")
    def _odds(self, expression: Expression) -> None:
        """Compute the exact odds off the UI thread, then show them under the roll."""
        from rules.odds import odds
        from tui.present.rolls import odds_summary

        line = self._line
        try:
            summary = odds_summary(expression, odds(expression))
            text = f"Шансы: {summary[:1].lower()}{summary[1:]}"
        except RulesError as err:
            text = f"Шансы: {err}"
        self.app.call_from_thread(self._show_odds, line, text)

    def _show_odds(self, line: str, text: str) -> None:
        if getattr(self, "_line", None) == line:  # a newer roll has not replaced it
            self.query_one("#quick-output", Static).update(f"{line}\n[dim]{plain(text)}[/dim]")
