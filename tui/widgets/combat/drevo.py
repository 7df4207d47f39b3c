"""The Бой tab: set up a fight, roll side initiative, declare in side order, resolve exchanges.

Phases follow ``rules.encounter.Encounter``: ``setup`` → ``declare`` → ``resolve`` → next round.
The encounter is saved in the campaign (store doc ``encounter``), so it survives a restart and
the store's undo covers every step. A Древо exchange — its dice, Судьба and damage — lives in
that document too (``tui.widgets.combat.drevo_resolve``): the pane derives what it shows from the
store on every change and keeps no copy. Declarations are checked by the rules when made;
the GM's «!» allows what the seed leaves to them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from rules import drevo
from rules.encounter import ACTION_NAMES, Combatant, Encounter, Pairing
from rules.errors import RulesError
from rules.initiative import roll_side_initiative
from tui import words
from tui.bridge import combat as bridge
from tui.bridge import combat_other as other
from tui.bridge.combat_other import SYSTEM_NOTES, OtherResult
from tui.bridge.sheets import wounds_text
from tui.present.combat import declaration_text
from tui.present.rolls import fudge_dice, plain, signed
from tui.store import Character, StoreError, new_id
from tui.widgets.combat.drevo_forms import DeclarationForm, NpcForm
from tui.widgets.combat.drevo_resolve import ExchangeMixin
from tui.widgets.common.choice import Choice, ChoiceScreen
from tui.widgets.common.focus import focus_now
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.table import Table

SIDE_CYCLE = ("—", "Отряд", "Противники", "Третья сторона")
DOC = "encounter"
FIGHT_NOT_SAVED = "ход боя не записан"
#: Seconds a write runs before the status line says it is being saved.
SHOW_WAITING_AFTER = 0.15


class ExchangeView(Static, can_focus=True):
    """The current exchange: who, with what, the odds, then the dice and the damage."""


class CombatPane(ExchangeMixin, Vertical):
    """Run a fight from the keyboard; the footer shows the keys of the current phase."""

    BINDINGS = [
        Binding("space", "cycle_side", "Сторона", id="combat-side"),
        Binding("a", "add_npc", "+НИП", id="combat-add", tooltip="Добавить НИП на месте"),
        Binding("i", "initiative", "Инициатива", id="combat-initiative"),
        Binding("z", "ambush", "Засада", id="combat-ambush", tooltip="Ведущий задаёт порядок"),
        Binding("enter", "declare", "Объявить", id="combat-declare"),
        Binding("enter", "roll", "Бросить", id="combat-roll"),
        Binding("enter", "apply", "Принять", id="combat-apply"),
        Binding("enter", "skip", "Пропустить", id="combat-skip-enter"),
        Binding("enter", "next_exchange", "Дальше", id="combat-next-exchange"),
        Binding(
            "exclamation_mark",
            "allow",
            "Исключение",
            id="combat-allow",
            tooltip="Исключение ведущего: разрешить то, что правила запрещают",
        ),
        Binding(
            "d",
            "remove_fallen",
            "Убрать",
            id="combat-remove-fallen",
            tooltip="Убрать из боя тяжелораненого или павшего",
        ),
        Binding("f", "fate_before", "Судьба +4", id="combat-fate-before"),
        Binding("p", "fate_shift", "Судьба ±", id="combat-fate-shift"),
        Binding("r", "reroll_tie", "Перебросить ничью", id="combat-reroll"),
        Binding("s", "skip", "Пропустить", id="combat-skip"),
        Binding("1", "reduce(1)", "−1 уровень", id="combat-reduce-1"),
        Binding("2", "reduce(2)", "−2", id="combat-reduce-2", show=False),
        Binding("3", "reduce(3)", "−3", id="combat-reduce-3", show=False),
        Binding("n", "next_round", "След. раунд", id="combat-next-round"),
        Binding("x", "end_fight", "Конец боя", id="combat-end"),
    ]

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.encounter = Encounter()
        self.characters: dict[str, Character] = {}
        self._other: OtherResult | None = None  # another system's exchange (not stored)
        self._other_refusal: str = ""
        #: The stored fight this pane shows (None: none stored): a write is a delta to it.
        self._read: dict[str, Any] | None = None
        #: The label of the write being saved in the app's writer (a worker), else None.
        self._pending: str | None = None
        #: Whether the pending write has waited long enough to be shown (see _write).
        self._waiting = False
        self._writes = 0
        #: Why the last write was not saved (shown until the next one is), else "".
        self._failed = ""

    def compose(self) -> ComposeResult:
        yield Static(id="combat-status")
        with Vertical(id="combat-setup"):
            yield Table(id="combat-roster", cursor_type="row", zebra_stripes=True)
        with Vertical(id="combat-declare"):
            yield Table(id="combat-order", cursor_type="none", zebra_stripes=True)
            yield DeclarationForm(id="combat-form")
        # Scrolls to its end on each redraw: at 80×24 a long exchange (two one-sided checks,
        # both hit) would hide the Судьба offer and the final wounds under the key bar.
        with VerticalScroll(id="combat-resolve", can_focus=False):
            yield ExchangeView(id="combat-exchange")
            yield OddsBars(id="combat-odds")
            with Vertical(id="combat-other"):
                yield Stepper("Атака: черта", id="other-a-stat")
                yield Stepper("Атака: навык", id="other-a-skill")
                yield Stepper("Защита: черта", id="other-b-stat")
                yield Stepper("Защита: навык", id="other-b-skill")

    def on_mount(self) -> None:
        self.query_one("#combat-roster", DataTable).add_columns(
            "Сторона", "Имя", "Кто", "Оружие", "Раны"
        )
        order = self.query_one("#combat-order", DataTable)
        order.add_columns("№", "Сторона", "Кто", "Заявка")
        order.can_focus = False

    # -- state ---------------------------------------------------------------------------------

    @property
    def store(self) -> Any:
        return self.app.store  # type: ignore[attr-defined]

    @property
    def drevo(self) -> bool:
        """Whether exchanges follow Древо (else the campaign system's opposed check)."""
        return bool(self.store.campaign.system == "drevo")

    def show(self, characters: list[Character]) -> None:
        """Redraw from the store: the party and the saved encounter."""
        self.characters = {c.id: c for c in characters}
        saved = self.store.get_doc(DOC)
        self._read = saved
        if saved:
            try:
                self.encounter = Encounter.from_dict(saved)
            except (RulesError, TypeError, KeyError, ValueError):
                self.app.notify("Сохранённый бой повреждён — начните новый (x).", severity="error")
                self.encounter = Encounter()
        else:
            self.encounter = self._default_encounter(characters)
        phase = getattr(self, "_drawn_phase", None)
        self._prune()
        self._redraw()
        self._refocus(phase != self.encounter.phase)

    def _refocus(self, phase_changed: bool) -> None:
        """After an undo, a redo or another kubik: keep the keys working on the shown phase."""
        try:
            active = self.app.query_one("TabbedContent").active == "combat"
        except Exception:  # noqa: BLE001 - no tabs (a test mounting the pane alone)
            return
        if not active or len(self.app.screen_stack) > 1:
            return
        focused = self.app.focused
        hidden = focused is None or not all(
            n.display for n in focused.ancestors_with_self if hasattr(n, "display")
        )
        if phase_changed or hidden:
            self._focus_phase()

    def _default_encounter(self, characters: list[Character]) -> Encounter:
        enc = Encounter()
        for c in characters:
            if bridge.can_act(c):
                side = "Отряд" if c.kind == "pc" else "Противники"
                enc = enc.with_combatant(Combatant(c.id, c.name, side))
        return enc

    def _prune(self) -> None:
        """Drop combatants whose characters were deleted from the party (setup only)."""
        if self.encounter.phase != "setup":
            return
        for c in self.encounter.combatants:
            if c.character_id not in self.characters:
                self.encounter = self.encounter.without(c.character_id)

    def _save(
        self,
        encounter: Encounter,
        label: str,
        upsert: tuple[Character, ...] = (),
        docs: dict[str, Any] | None = None,
        then: Callable[[str], object] | None = None,
    ) -> bool:
        """Save the encounter (and characters it changed) as one step, in the app's writer.

        See :meth:`_write`: the pane shows the new state once the store has it, then
        ``then(step)`` runs with the id of the step written (for its Журнал lines).
        """
        return self._put(encounter.to_dict(), label, upsert, docs, then)

    def _put(
        self,
        doc: dict[str, Any] | None,
        label: str,
        upsert: tuple[Character, ...] = (),
        docs: dict[str, Any] | None = None,
        then: Callable[[str], object] | None = None,
    ) -> bool:
        """Write the fight as a delta against the one this pane showed (see :meth:`show`):
        what another window changed meanwhile stays, and a step made on a part of the fight
        it changed too is refused («В другом окне изменили то же самое …»)."""
        store, changes, bases = self.store, {**(docs or {}), DOC: doc}, {DOC: self._read}

        def job() -> None:
            store.apply(label, upsert=upsert, docs=changes, bases=bases, what=FIGHT_NOT_SAVED)

        return self._write(job, label, then)

    def _write(
        self, job: Callable[[], object], label: str, then: Callable[[str], object] | None = None
    ) -> bool:
        """Hand one store write to the app's writer (a worker thread; writes keep their order).

        The UI never waits for the campaign's lock: while another kubik holds it, the status
        line says the write is being saved, and the pane keeps showing what the store has.
        The pane changes only through the store's notification, so a write that fails (the
        lock not had in time, a full disk, another window's change) changes nothing on
        screen: the GM is told why, and the status line says what was not saved. While one
        write is pending, the next is refused (False): it would be made from a state that
        is not the store's yet, and a key pressed twice must not apply twice.
        """
        if self._pending is not None:
            self.app.notify(
                f"Подождите: ещё сохраняется «{self._pending}» — повторите, когда сохранится.",
                severity="warning",
                timeout=5,
            )
            return False
        self._pending, self._failed, self._waiting = label, "", False
        self._writes += 1
        self._show_waiting_later()
        store = self.store

        def run() -> str:
            try:
                job()
            except (StoreError, RulesError):
                raise
            except Exception as err:  # noqa: BLE001 - the pane must not stay «pending»
                raise StoreError(f"Ошибка при записи: {err}. Кампания не изменилась.") from err
            return str(store.take_last_step() or "")  # this worker thread's step

        def done(step: str) -> None:
            self._pending, self._waiting = None, False
            self._redraw()  # the status line's height changes: the exchange scrolls anew
            if then is not None:
                then(step)

        def failed(err: Exception) -> None:
            self._pending, self._waiting = None, False
            self._failed = f"Не сохранено «{label}»: {err}"
            self.app.notify(str(err), severity="error", timeout=10)
            self._redraw()

        self.app.write(run, done, failed=failed)  # type: ignore[attr-defined]
        self._draw_status()
        return True

    def _show_waiting_later(self) -> None:
        """Say «Сохраняется…» only for a write that waits (for another kubik's lock): most
        take milliseconds, and the status line should not flicker for them."""
        token = self._writes

        def waiting() -> None:
            if self._pending is not None and self._writes == token:
                self._waiting = True
                self._draw_status()

        self.set_timer(SHOW_WAITING_AFTER, waiting)

    def _log(
        self, actor: str | None, text: str, data: dict[str, Any] | None = None, step: str = ""
    ) -> None:
        """Log a line of the fight; ``step``: the undo step it tells of, for a change that
        writes more than one line (else the change just made)."""
        payload = {"round": self.encounter.round, **(data or {})}
        self.app.record("combat", actor, text, payload, step)  # type: ignore[attr-defined]

    def _can_act(self) -> Callable[[str], bool]:
        return lambda cid: bridge.can_act(self.characters.get(cid))

    def _marked(self, name: str, character_id: str) -> str:
        """A name with «тяжело ранен» / «погиб» when the character is down."""
        c = self.characters.get(character_id)
        state = words.wound_state(bridge.track_of(c)) if c else ""
        return f"{name} ({state})" if state else name

    def _names(self) -> dict[str, str]:
        return {c.character_id: c.name for c in self.encounter.combatants}

    # -- which keys apply ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self.encounter.phase
        stage = self._stage()
        if action in ("cycle_side", "add_npc", "initiative", "ambush"):
            return phase == "setup"
        if action == "declare":
            return phase == "declare"
        if action == "allow":
            return phase == "declare" and self._allowable()
        if action == "remove_fallen":
            return phase != "setup" and bool(self._fallen())
        if action == "roll":
            return stage == "plan"
        if action in ("fate_before", "fate_shift", "reduce") and not self.drevo:
            return False
        if action == "fate_before":
            return stage == "plan" and bool(self._fate_before_choices())
        if action in ("fate_shift",):
            return stage == "rolled" and bool(self._shift_choices())
        if action == "reroll_tie":
            _, _, result = self._derive() if self.drevo else (None, "", None)
            return stage == "rolled" and result is not None and result.tie
        if action == "apply":
            return stage in ("rolled", "damage")
        if action == "next_exchange":
            return stage == "done"
        if action == "skip":
            return stage in ("plan", "refused")
        if action == "reduce":
            (levels,) = parameters
            return stage == "damage" and any(cost == levels for _, cost in self._reduce_options())
        if action == "next_round":
            return phase == "resolve" and not self.encounter.pending()
        if action == "end_fight":
            return phase != "setup"
        return True

    def key_bar_text(self, binding: Binding) -> tuple[str, str] | None:
        """The key bar's «1»: one entry for every level Судьба can take off now («1–2»)."""
        if binding.action != "reduce(1)":
            return None
        costs = sorted({cost for _, cost in self._reduce_options()})
        if len(costs) < 2:
            return None
        return f"1–{costs[-1]}", f"−1…−{costs[-1]} уровня"

    def _stage(self) -> str:
        """Return where the resolution of the current exchange stands."""
        if self.encounter.phase != "resolve" or not self.encounter.pending():
            return ""
        if not self.drevo:
            if self._other is not None:
                return "rolled"
            return "refused" if self._other_refusal else "plan"
        return self._exchange_stage()

    # -- drawing --------------------------------------------------------------------------------

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
            status.update(
                f"[$warning]Сохраняется: «{plain(self._pending or '')}»…[/]"
                if waiting
                else f"[$error]{plain(self._failed)}[/]"
            )
            return
        if enc.phase == "setup":
            status.update(
                "[b]Подготовка боя.[/b] Пробел — сторона участника, a — новый НИП, "
                "i — бросить инициативу (4dF за сторону), z — засада (порядок задаёт ведущий)."
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
        status.update(
            f"[b]Раунд {enc.round}[/b], {phase}. Порядок: {' → '.join(enc.side_order())}\n"
            f"[dim]Инициатива: {how}[/dim]"
        )

    def _draw_roster(self) -> None:
        table = self.query_one("#combat-roster", DataTable)
        row = table.cursor_row
        table.clear()
        sides = {c.character_id: c.side for c in self.encounter.combatants}
        for c in self.characters.values():
            table.add_row(
                sides.get(c.id, "—"),
                c.name,
                "Игрок" if c.kind == "pc" else "НИП",
                ", ".join(c.weapons) or "—",
                wounds_text(c.wounds)
                + (f" ({words.wound_state(bridge.track_of(c))})" if not bridge.can_act(c) else ""),
                key=c.id,
            )
        if table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))

    def _draw_order(self) -> None:
        enc = self.encounter
        can_act = self._can_act()
        table = self.query_one("#combat-order", DataTable)
        table.clear()
        declared = {d.actor: d for d in enc.all_declarations()}
        names = self._names()
        order = enc.declaring_order(can_act)
        busy = [c for c in enc.combatants if c.character_id in {d.actor for d in enc.carried}]
        for number, c in enumerate([*order, *busy], start=1):
            d = declared.get(c.character_id)
            text = declaration_text(d, names) if d else "…"
            name = self._marked(c.name, c.character_id)
            table.add_row(str(number), c.side, name, text, key=c.character_id)
        for c in enc.combatants:
            if c not in order and c not in busy:
                mark = self._marked(c.name, c.character_id)
                table.add_row("—", c.side, mark, "не действует", key=c.character_id)
        current = enc.next_declarer(can_act)
        form = self.query_one(DeclarationForm)
        if current is None:
            form.display = False
            return
        form.display = True
        actor = self.characters[current.character_id]
        targets = [
            (self._marked(c.name, c.character_id), c.character_id)
            for c in enc.combatants
            if c.side != current.side
            and c.character_id in self.characters
            and not bridge.is_dead(self.characters[c.character_id])
        ]
        form.prepare(actor, bridge.weapon_names(actor), targets)

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
            view.update("\n".join(lines))
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
        view.update("\n".join([header, *lines]))
        self._show_the_end()

    def _show_the_end(self) -> None:
        """Scroll the exchange to its last lines (what Enter does next), once laid out."""
        box = self.query_one("#combat-resolve", VerticalScroll)
        self.call_after_refresh(box.scroll_end, animate=False, immediate=True)

    def _draw_other(self, pairing: Pairing) -> None:
        """An exchange of another system: choose each side's trait, roll its opposed check."""
        names = self._names()
        total = len(self.encounter.pairings())
        number = total - len(self.encounter.pending()) + 1
        attacker = self.characters.get(pairing.attack.actor)
        defender = self.characters.get(pairing.attack.target or "")
        lines = [
            f"[b]Схватка {number} из {total}:[/b] {plain(names.get(pairing.attack.actor, '?'))}: "
            f"{plain(declaration_text(pairing.attack, names))}",
            f"[dim]{SYSTEM_NOTES[self.store.campaign.system]}[/dim]",
        ]
        if attacker is None or defender is None:
            lines.append("[$error]Участник схватки больше не в партии — s: пропустить.[/]")
            self._other_refusal = "участник выбыл"
        elif self._other is None:
            for prefix, c in (("a", attacker), ("b", defender)):
                stat = self.query_one(f"#other-{prefix}-stat", Stepper)
                skill = self.query_one(f"#other-{prefix}-skill", Stepper)
                if getattr(stat, "_owner", None) != c.id:
                    stat.set_options(other.stat_options(c))
                    skill.set_options(other.skill_options(c))
                    stat._owner = c.id  # type: ignore[attr-defined]
            lines.append("Выберите черты сторон (↑/↓, ←/→) — Enter: бросить.")
        else:
            lines += self._other.lines
            lines.append("Урон — на усмотрение ведущего. Enter — дальше.")
        self.query_one(ExchangeView).update("\n".join(lines))

    def _roll_other(self) -> None:
        pairing = self.encounter.pending()[0]
        attacker = self.characters[pairing.attack.actor]
        defender = self.characters[pairing.attack.target or ""]

        def spec(prefix: str, c: Character) -> tuple[Character, str, str]:
            return (
                c,
                self.query_one(f"#other-{prefix}-stat", Stepper).value or "",
                self.query_one(f"#other-{prefix}-skill", Stepper).value or "",
            )

        try:
            self._other = other.opposed(
                self.store.campaign.system,
                spec("a", attacker),
                spec("b", defender),
                self.app.rng,  # type: ignore[attr-defined]
            )
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        text = " / ".join(_plain(line) for line in self._other.lines)
        self._log(attacker.name, f"Схватка: {text}", self._other.data)
        self._redraw()

    # -- setup actions ----------------------------------------------------------------------------

    @on(DataTable.RowSelected, "#combat-roster")
    def _roster_enter(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_cycle_side()

    def action_cycle_side(self) -> None:
        """Move the highlighted character to the next side (or out of the fight)."""
        table = self.query_one("#combat-roster", DataTable)
        if table.row_count == 0:
            return
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        c = self.characters.get(key.value or "")
        if c is None:
            return
        current = next((x.side for x in self.encounter.combatants if x.character_id == c.id), "—")
        side = SIDE_CYCLE[(SIDE_CYCLE.index(current) + 1) % len(SIDE_CYCLE)]
        enc = self.encounter.without(c.id)
        if side != "—":
            enc = enc.with_combatant(Combatant(c.id, c.name, side))
        self._save(enc, f"Бой: {c.name} — {side}")

    def action_add_npc(self) -> None:
        """Add an NPC on the spot: name, skills, weapon; it joins the party and the enemies."""

        def added(npc: Character | None) -> None:
            self.call_after_refresh(self._focus_phase)  # back on the roster, keys working
            if npc is None:
                return
            enc = self.encounter.with_combatant(Combatant(npc.id, npc.name, "Противники"))
            self._save(enc, f"Бой: новый НИП {npc.name}", (npc,))

        self.app.push_screen(NpcForm(), added)

    def action_initiative(self) -> None:
        """Roll 4dF per side (ties reroll) and start round 1."""
        sides = list(self.encounter.sides)
        try:
            rolls = roll_side_initiative(sides, self.app.rng)  # type: ignore[attr-defined]
            how = [{"side": r.side, "rolls": [list(d) for d in r.rolls]} for r in rolls]
            enc = self.encounter.with_initiative([r.side for r in rolls], how)
            enc = replace(enc, id=new_id())
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        text = "Инициатива: " + ", ".join(f"{r.side} {signed(r.final)}" for r in rolls)

        def saved(step: str) -> None:
            self._log(None, text, {"initiative": how}, step=step)
            self._focus_phase()

        self._save(enc, "Бой: инициатива", then=saved)

    def action_ambush(self) -> None:
        """Let the GM set the side order (an ambush): pick who acts first, then next…"""
        remaining = list(self.encounter.sides)
        if len(remaining) < 2:
            self.app.notify("Для боя нужны хотя бы две стороны.", severity="error")
            return
        chosen: list[str] = []

        def pick(side: str | None) -> None:
            if side is None:
                return
            chosen.append(side)
            remaining.remove(side)
            if len(remaining) > 1:
                self.app.push_screen(self._order_screen(len(chosen) + 1, remaining), pick)
                return
            order = chosen + remaining
            enc = self.encounter.with_initiative(order, [{"side": s} for s in order])
            enc = replace(enc, id=new_id())

            def saved(step: str) -> None:
                self._log(None, "Засада: порядок сторон — " + " → ".join(order), step=step)
                self._focus_phase()

            self._save(enc, "Бой: порядок задан ведущим", then=saved)

        self.app.push_screen(self._order_screen(1, remaining), pick)

    def _order_screen(self, place: int, sides: list[str]) -> ChoiceScreen:
        return ChoiceScreen(f"Кто ходит {place}-м?", [Choice(s, s) for s in sides])

    # -- declarations ---------------------------------------------------------------------------

    def _allowable(self) -> bool:
        """Whether the form's declaration breaks a rule the GM may set aside."""
        current = self.encounter.next_declarer(self._can_act())
        if current is None:
            return False
        problem, may_allow = self.query_one(DeclarationForm).problem()
        return bool(problem) and may_allow

    def action_declare(self, allow: bool = False) -> None:
        """Record the current declarer's action from the form (refused when illegal)."""
        can_act = self._can_act()
        current = self.encounter.next_declarer(can_act)
        if current is None:
            self._start_resolution()
            return
        form = self.query_one(DeclarationForm)
        try:
            declaration = form.declaration(current.character_id)
        except RulesError as err:
            form.show_problem(str(err), False)
            return
        problem, may_allow = form.problem()
        if problem and not (allow and may_allow):
            form.show_problem(problem, may_allow)  # the form says why, and the GM's key
            return
        if problem:
            declaration = replace(declaration, exception=problem)
        try:
            enc = self.encounter.declare(declaration, can_act)
            last = enc.next_declarer(can_act) is None
            if last:  # the last declaration and the move to the dice are one undo step
                enc = enc.start_resolution(can_act)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        names = self._names()
        text = "Заявка: " + declaration_text(declaration, names)
        if problem:
            text = f"Заявка (исключение ведущего: {problem}) " + declaration_text(
                declaration, names
            )

        def saved(step: str) -> None:
            self._log(current.name, text, {"declaration": vars(declaration)}, step=step)
            self._focus_phase()  # the next declarer on the form's first row, or the dice

        self._save(enc, f"Бой: заявка {current.name}", then=saved)

    def action_allow(self) -> None:
        """Declare what the rules refuse, as the GM's exception («исключение ведущего»)."""
        self.action_declare(allow=True)

    def _start_resolution(self) -> None:
        try:
            enc = self.encounter.start_resolution(self._can_act())
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        self._reset_exchange()
        self._save(enc, "Бой: к броскам", then=lambda _step: self._focus_phase())

    # -- resolution -------------------------------------------------------------------------------

    def _reset_exchange(self) -> None:
        self._other, self._other_refusal = None, ""

    def action_roll(self) -> None:
        """Roll the current exchange (its dice are stored the moment they fall)."""
        if not self.drevo:
            self._roll_other()
            return
        self.roll_exchange()

    def action_reroll_tie(self) -> None:
        """Roll a tied exchange again (the conflict is still open): a new attempt."""
        _, _, result = self._derive()
        if result is None or not result.tie:
            return
        self.roll_exchange(int(self._ex().get("attempt", 1)) + 1)

    def action_apply(self) -> None:
        """Accept the roll, the damage as it is, or the exchange's result."""
        if not self.drevo:
            if self._other is not None:
                self._finish_other()
            return
        self.accept_exchange()

    def action_next_exchange(self) -> None:
        """Close the exchange whose final wounds are shown; the next one comes up."""
        if self._stage() == "done":
            self.finish_exchange()

    def action_reduce(self, levels: int) -> None:
        """Spend Судьба to lower the damage by ``levels`` (use 4)."""
        self.take_damage(levels)

    def _finish_other(self) -> None:
        pairing = self.encounter.pending()[0]
        enc = self.encounter.mark_resolved(pairing)
        self._reset_exchange()
        self._save(enc, "Бой: схватка разрешена")

    def action_skip(self) -> None:
        """Skip the current exchange (refused by the rules, or the GM decides otherwise)."""
        pending = self.encounter.pending()
        if not pending:
            return
        if not self.drevo:
            reason = self._other_refusal or "решение ведущего"
            self._log(None, f"Схватка пропущена: {reason}")
            self._finish_other()
            return
        _, refusal, _ = self._derive()
        self.finish_exchange(skipped=refusal or "решение ведущего")

    def action_next_round(self) -> None:
        """Start the next round; the declaration order reverses."""
        self._reset_exchange()
        finished = self.encounter.round
        enc = self.encounter.next_round()
        notices: list[Any] = []
        effects: dict[str, Any] = {}
        if self.drevo:  # the effects' round ends with the fight's (one undo step)
            from tui.bridge.effects import tick_round

            order = [c.character_id for c in enc.combatants]
            effects, notices = tick_round(self.store, finished, order)

        def saved(step: str) -> None:  # every line tells of the one step
            self._log(
                None, f"Раунд {enc.round}: заявляют " + " → ".join(enc.side_order()), step=step
            )
            if notices:
                from tui.bridge.effects import notice_lines

                names = {c.id: c.name for c in self.characters.values()}
                for actor, text in notice_lines(notices, names):
                    self._log(actor, text, step=step)
            self._focus_phase()

        self._save(enc, f"Бой: раунд {enc.round}", docs=effects, then=saved)

    def action_end_fight(self) -> None:
        """End the fight; wounds stay on the characters."""
        self._reset_exchange()
        done = self.encounter.round

        def saved(step: str) -> None:
            self._log(None, f"Бой завершён после {words.rounds(done, 'gen')}", step=step)
            self._focus_phase()

        self._put(None, "Бой завершён", then=saved)

    def _fallen(self) -> list[Combatant]:
        return [
            c
            for c in self.encounter.combatants
            if not bridge.can_act(self.characters.get(c.character_id))
        ]

    def action_remove_fallen(self) -> None:
        """Take a heavily wounded or dead combatant out of the order."""

        def chosen(cid: str | None) -> None:
            c = self.encounter.combatant(cid) if cid else None
            if c is None:
                return
            enc = self.encounter.remove_fallen(c.character_id)
            text = f"{c.name} выбывает из боя (решение ведущего)"
            self._save(
                enc, f"Бой: {c.name} выбывает", then=lambda step: self._log(None, text, step=step)
            )

        choices = [
            Choice(
                f"{c.name} — {words.wound_state(bridge.track_of(self.characters[c.character_id]))}",
                c.character_id,
            )
            for c in self._fallen()
            if c.character_id in self.characters
        ]
        self.app.push_screen(ChoiceScreen("Убрать из боя", choices), chosen)

    def _focus_phase(self) -> None:
        phase = self.encounter.phase
        target = {
            "setup": "#combat-roster",
            "declare": "#combat-form Stepper",
            "resolve": "#combat-exchange" if self.drevo else "#combat-other Stepper",
        }[phase]
        focus_now(self.query(target).first())

    def focus_first(self) -> None:
        """Focus the control of the current phase (the app calls this on tab switch)."""
        self._focus_phase()


def _plain(markup: str) -> str:
    """Strip Textual markup for the log's plain text."""
    from textual.markup import to_content

    return to_content(markup).plain


__all__ = ["ACTION_NAMES", "CombatPane"]
