"""The result of an IDE4™ opposed check in the builder: both checks, the comparison, each side's
moves (rerolls, energy after, mastery bonuses in the seed's order, any side), each move logged and
its energy written back to the character, and on a full tie the GM's recorded choice (status quo,
or a price to both). The second side's setup and the comparison's words: ``ide4_opposed``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from rules import ide4
from rules.errors import RulesError
from tui.store import Character
from tui.table.check import ide4_text as txt
from tui.widgets.builders.base import CheckRolled, SpendTrail
from tui.widgets.builders.ide4_dialogs import Choice, ChooserScreen
from tui.widgets.builders.ide4_opposed import CSS, verdict
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.text import show_markup


class OpposedResultScreen(StyledOnce, ModalScreen[Any]):
    """Both checks, the comparison, each side's moves; on a full tie the GM's recorded choice."""

    DEFAULT_CSS = CSS.format(name="OpposedResultScreen")
    BINDINGS = [
        Binding("r", "move('reroll')", "Переброс", id="ide4-opp-reroll"),
        Binding("e", "move('energy_after')", "Энергия", id="ide4-opp-energy"),
        Binding("b", "move('bonus')", "Бонус", id="ide4-opp-bonus"),
        Binding("enter,escape", "done", "Итог", id="ide4-opp-done"),
    ]
    #: Ctrl+Z / Ctrl+Y apply here: its moves follow their steps (:meth:`follow_trail`).
    follows_undo = True

    def __init__(
        self,
        a: ide4.Check,
        b: ide4.Check,
        ids: tuple[str | None, str | None],
        characters: Callable[[], dict[str, Character]],
    ) -> None:
        super().__init__()
        self.checks = {"a": a, "b": b}
        self.ids = dict(zip("ab", ids, strict=True))
        self.characters = characters  # the party now (never a stale copy written back)
        #: The sheet steps of its moves: undone or redone, both checks follow.
        self._trail = SpendTrail()
        #: Each side's stored energy as last seen (see :meth:`_follow_energy`).
        self._energy_seen: dict[str, int] = {}

    @property
    def result(self) -> ide4.OpposedResult:
        """The comparison of the two checks now."""
        return ide4.opposed(self.checks["a"], self.checks["b"])

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Противоборство[/b]: обе стороны проверены", classes="dialog-title")
            with VerticalScroll(id="opp-steps"):
                yield Static(id="opp-lines")
            yield Static(id="opp-verdict")
            yield Stepper(
                "При равенстве",
                [("— выберите ←/→ —", "")]
                + [(name, key) for key, name in ide4.TIE_RESOLUTIONS.items()],
                id="opp-tie",
            )
            with Horizontal(classes="opp-field", id="opp-price-row"):
                yield Label("Цена обеим    ")
                yield ReadyInput(
                    placeholder="что теряет каждая сторона", id="opp-price", compact=True
                )
            yield Static(
                "[dim]r — переброс · e — энергия после · b — бонус (любой стороны) · "
                "Enter — записать итог[/]"
            )

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        lines: list[str] = []
        for key in "ab":
            lines += txt.result_lines(self.checks[key])
        show_markup(self.query_one("#opp-lines", Static), "\n".join(lines))
        result = self.result
        tie = result.winner is None
        show_markup(self.query_one("#opp-verdict", Static), f"[b]{escape(verdict(result))}[/b]")
        self.query_one("#opp-tie").display = tie
        self.query_one("#opp-price-row").display = (
            tie and self.query_one("#opp-tie", Stepper).value == "price"
        )
        if tie:
            self.query_one("#opp-tie", Stepper).focus()

    @on(Stepper.Changed, "#opp-tie")
    def _tie_changed(self) -> None:
        self._show()
        if self.query_one("#opp-tie", Stepper).value == "price":
            self.query_one("#opp-price", Input).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "move" and isinstance(self.focused, Input):
            return False  # the price field takes letters as text
        return True

    def _choices(self, kind: str) -> list[Choice]:
        """Each side's moves of ``kind``: allowed with what each is worth to that side (its
        exact chance to improve and to worsen its outcome, the table engine's figures), or
        the rule against it; a bonus's skill reroll last."""
        from tui.table.check.ide4_view import offers_of
        from tui.widgets.builders.ide4_moves import choice

        choices = []
        for key in "ab":
            check = self.checks[key]
            who = check.input.actor or key
            if kind == "energy_after":
                choices += self._energy_choices(key, check, who)
                continue
            offers = offers_of(check)
            if kind == "reroll":
                picked = [(o, f"{key}:reroll:{o.source}") for o in offers if o.kind == "reroll"]
            else:
                picked = [(o, f"{key}:bonus:{o.source}") for o in offers if o.kind == "bonus"]
                picked += [
                    (replace(o, name="переброс от навыка"), f"{key}:bonus:reroll")
                    for o in offers
                    if o.kind == "reroll" and o.source == "skill"
                ]
            for offer, cid in picked:
                made = choice(offer, f"{who}: {offer.name}")
                choices.append(replace(made, id=cid))
        return choices

    def _gone(self, key: str) -> str:
        """Why side ``key`` cannot spend energy: its character was removed ("" if not)."""
        cid = self.ids[key]
        if cid is None or cid in self.characters():
            return ""
        who = self.checks[key].input.actor or key
        return f"Персонаж {who} удалён в другом окне — энергию тратить не из чего."

    def _energy_choices(self, key: str, check: ide4.Check, who: str) -> list[Choice]:
        from tui.table.check.ide4_view import offers_of
        from tui.widgets.builders.ide4_moves import choice

        refusal = ide4.energy_after_refusal(check) or self._gone(key)
        if refusal:
            return [Choice(f"{key}:none:", f"{who}: энергия после", False, refusal)]
        return [
            replace(choice(o, f"{who}: {o.name}"), id=f"{key}:energy:{o.source}")
            for o in offers_of(check)
            if o.kind == "energy_after"
        ]

    def action_move(self, kind: str) -> None:
        """Choose a move for either side: each allowed, or the rule that forbids it."""
        titles = {
            "reroll": "Переброс d100: сторона и источник",
            "energy_after": "Энергия после броска: сторона и кубы (до номинала)",
            "bonus": "Бонус мастерства: сторона и бонус",
        }
        self.app.push_screen(ChooserScreen(titles[kind], self._choices(kind)), self._chosen)

    def _chosen(self, choice: str | None) -> None:
        if not choice:
            return
        key, kind, arg = choice.split(":")
        if kind == "energy" and self._gone(key):  # removed while the chooser was open
            self.app.notify(self._gone(key), severity="error")
            return
        rng = self.app.rng  # type: ignore[attr-defined]
        moves: dict[str, Callable[[ide4.Check], ide4.Check]] = {
            "reroll": lambda c: ide4.reroll(c, arg, rng),
            "bonus": lambda c: ide4.bonus(c, arg, rng),
        }
        if kind == "energy":
            count, size = (int(x) for x in arg.split("x"))
            moves["energy"] = lambda c: ide4.energy_after(c, count, size, rng=rng)
        before = self.checks[key]
        try:
            after = moves[kind](before)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        was = dict(self.checks)
        self.checks[key] = after
        step = after.steps[-1]
        what = txt.log_text(after, kind, step)
        text = f"Противоборство, ход: {what}"
        spend = self._paid(key, after)  # the sheet and the line: one undo step
        data = {**after.to_dict(), "event": "energy_after" if kind == "energy" else kind}
        message = CheckRolled(after.input.actor or None, text, data, spend=spend)
        if spend is not None:
            self._trail.add(self.app, message.entry_id, was, dict(self.checks))
        self.post_message(message)
        self._show()

    def _paid(self, key: str, check: ide4.Check) -> Character | None:
        """Return the character with what ``check`` spent written in (None: nothing to pay)."""
        c = self.characters().get(self.ids[key] or "")
        if c is None:
            return None
        extra = dict(c.extra)
        if check.energy_spent:
            extra["energy"] = check.pool_after
        if check.daily_triumph_spent:
            extra["daily_triumph_used"] = True
        return replace(c, extra=extra) if extra != c.extra else None

    def follow_trail(self) -> None:
        """A move's sheet step undone or redone (Ctrl+Z, Ctrl+Y): the checks go back to their
        state before or after it, the dice kept. Then each side follows its stored energy."""
        has, state = self._trail.state(self.app)
        if has and state is not self._trail_state:  # once: see Ide4Builder._follow_trail
            self._trail_state = state
            if state != self.checks:
                self.checks = dict(state)
                self._show()
        self._follow_energy()

    _trail_state: Any = None

    def _follow_energy(self) -> None:
        """A side whose character's energy changed outside this dialog (Ctrl+Z of the energy
        before the roll, another window) goes on from the stored energy, as the single check
        does (``Ide4Builder._follow_energy``): what it spent stays spent, what the undo gave
        back is not taken again, and the dialog shows the energy the sheet has."""
        party = self.characters()
        changed = False
        for key in "ab":
            check = self.checks[key]
            c = party.get(self.ids[key] or "")
            if c is None or not check.steps:
                continue
            stored = int(c.extra.get("energy", 100))
            seen = self._energy_seen.get(key, check.input.energy_pool)
            if stored not in (seen, check.pool_after):
                self.checks[key] = replace(
                    check, input=replace(check.input, energy_pool=stored + check.energy_spent)
                )
                changed = True
                self.app.notify(
                    f"Энергия: {c.name} — теперь {stored} (изменена вне проверки). "
                    "Проверка пересчитана от неё.",
                    timeout=8,
                )
            self._energy_seen[key] = stored
        if changed:
            self._show()

    def spend_refused(self, entry_id: str) -> None:
        """The store refused a move's step: the checks go back to their state before it."""
        state = self._trail.refused(entry_id)
        if state is not None:
            self.checks = dict(state)
            self._show()

    def action_done(self) -> None:
        """Record the comparison (and on a full tie the GM's choice) and close."""
        result = self.result
        if result.winner is None:
            try:
                result = result.resolve_tie(
                    self.query_one("#opp-tie", Stepper).value,
                    self.query_one("#opp-price", Input).value,
                )
            except RulesError as err:
                self.app.notify(str(err), severity="error")
                return
        self.dismiss(result)

    @on(Input.Submitted, "#opp-price")
    def _price_entered(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_done()
