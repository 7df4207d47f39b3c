"""The Бой tab of IDE4, Старатели and Мир Тьмы: rounds with that system's own dice and words.

Initiative per combatant (or per side) the system's way (``rules.rounds``), whose turn it
is, harm as the system has it (IDE4 and Старатели: a free note; Мир Тьмы: the health track),
and effects that count down (``rules.effects``), with the scene clock outside combat. The
tracker and the effects are campaign documents (``rounds``, ``effects``): every step is one
store write, so Ctrl+Z undoes a turn together with the effects that expired at it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from rules import rounds
from rules.effects import (
    EffectSet,
    Notice,
    Now,
    remaining_text,
    tick_all,
)
from rules.errors import RulesError
from rules.rounds import Entrant, Fighter, Tracker
from rules.rounds import health as wod_health
from tui.bridge.effects import (
    EFFECTS_DOC,
    ROUNDS_DOC,
    character_modifiers,
    health_track,
)
from tui.present.rolls import plain
from tui.store import Character, StoreError
from tui.widgets.builders.base import Turn, open_turn
from tui.widgets.common.choice import Choice, ChoiceScreen
from tui.widgets.common.effect_keys import EffectContext, EffectKeys, effect_bindings
from tui.widgets.common.focus import focus_now
from tui.widgets.common.table import Table
from tui.words import SYSTEM_NAMES

SIDE_CYCLE = ("—", "Отряд", "Противники", "Третья сторона")
OUT = "—"
TIE_NAMES = {
    "reroll": "ничья — переброс между равными",
    "pc_first": "ничья — игроки раньше, затем переброс",
    "bonus": "ничья — выше постоянная часть, затем переброс",
}
#: Combat durations: they cannot tick once the fight is over.
COMBAT_DURATIONS = ("rounds", "turn_start", "turn_end")


def initiative_rule(system: str) -> str:
    """Return the line that names the system's initiative and tie rule (from the tables)."""
    try:
        tie = TIE_NAMES.get(rounds.tie_rule(system), "")
        per = "по сторонам" if rounds.per_side() else "у каждого"
        if system == "ide4":
            how = "проверка действия «Инициатива»; выше исход, затем итог"
        elif system == "starately":
            stat = rounds.initiative.setting("starately", "characteristic")
            how = f"2d6 + DM ({stat})"
        else:
            attrs = " + ".join(rounds.initiative.setting("wod", "attributes"))
            how = f"d10 + инициатива листа ({attrs})"
    except RulesError as err:
        return f"[$error]{plain(str(err))}[/]"
    return f"[dim]Инициатива {per}: {how}; {tie}.[/]"


NOT_SAVED = "ход боя не записан"
#: Seconds a write runs before the status line says it is being saved.
SHOW_WAITING_AFTER = 0.15


class RoundsPane(EffectKeys, Vertical):
    """Run rounds from the keyboard; the footer shows the keys that apply now."""

    BINDINGS = [
        Binding("space", "cycle_side", "Сторона", id="rounds-side"),
        Binding("i", "initiative", "Инициатива", id="rounds-initiative"),
        Binding("n", "next_turn", "След. ход", id="rounds-next", tooltip="Закончить ход"),
        Binding("enter", "check", "Проверка", id="rounds-check", tooltip="Проверка в конструкторе"),
        Binding(
            "o",
            "against",
            "Против",
            id="rounds-against",
            tooltip="Проверка ходящего против выделенного: противоборство в конструкторе",
        ),
        *effect_bindings("rounds", "e,plus", "d,minus", "h", show_remove=True),
        Binding("w", "harm", "Вред", id="rounds-harm", tooltip="Вред: заметка или клетка здоровья"),
        Binding("u", "heal", "Лечить", id="rounds-heal", tooltip="Снять клетку здоровья"),
        Binding("x", "end_fight", "Конец боя", id="rounds-end"),
    ]

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.characters: dict[str, Character] = {}
        self.tracker = Tracker("ide4")
        self.effects = EffectSet()
        self._rows: list[Any] = []
        self._last_actor = ""
        #: The label of the write being saved in the app's writer (a worker), else None.
        self._pending: str | None = None
        #: Whether the pending write has waited long enough to be shown (see _write).
        self._waiting = False
        self._writes = 0
        #: Why the last write was not saved (shown until the next one is), else "".
        self._failed = ""
        self._read: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield Static(id="rounds-status")
        yield Table(id="rounds-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="rounds-effects")

    def on_mount(self) -> None:
        harm = "Здоровье" if self.system == "wod" else "Вред"
        self.query_one("#rounds-table", DataTable).add_columns(
            "№", "Сторона", "Имя", "Инициатива", harm, "Эффекты"
        )

    # -- state ---------------------------------------------------------------------------------

    @property
    def store(self) -> Any:
        return self.app.store  # type: ignore[attr-defined]

    @property
    def system(self) -> str:
        return str(self.store.campaign.system)

    def show(self, characters: list[Character]) -> None:
        """Redraw from the store: the party, the saved fight and the effects."""
        self.characters = {c.id: c for c in characters}
        saved = self.store.get_doc(ROUNDS_DOC)
        #: The stored documents this pane shows: a write is a delta to them (see _save).
        self._read = {ROUNDS_DOC: saved, EFFECTS_DOC: self.store.get_doc(EFFECTS_DOC)}
        tracker = None
        if saved:
            try:
                tracker = Tracker.from_dict(saved)
            except RulesError as err:
                self.app.notify(str(err), severity="error")
        if tracker is None or tracker.system != self.system:
            tracker = self._default_tracker(characters)
        self.tracker = self._pruned(tracker)
        try:
            self.effects = EffectSet.from_dict(self.store.get_doc(EFFECTS_DOC))
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            self.effects = EffectSet()
        self._redraw()

    def _default_tracker(self, characters: list[Character]) -> Tracker:
        t = Tracker(self.system)
        for c in characters:
            side = "Отряд" if c.kind == "pc" else "Противники"
            t = t.with_entrant(Entrant(c.id, c.name, side, c.kind == "pc"))
        return t

    def _pruned(self, t: Tracker) -> Tracker:
        """Drop entrants whose characters were deleted; follow renames."""
        for e in t.entrants:
            c = self.characters.get(e.id)
            if c is None:
                t = t.without(e.id)
            elif c.name != e.name:
                t = t.with_entrant(replace(e, name=c.name))
        return t

    def now(self) -> Now:
        """Where time stands: the round, whose turn, the scene clock."""
        return Now(self.tracker.round, self.tracker.actor, self.effects.minute)

    def _names(self) -> dict[str, str]:
        return {c.id: c.name for c in self.characters.values()}

    def effect_context(self) -> EffectContext:
        """The effects and the fight as this pane shows them: whose turn it is, the order."""
        t = self.tracker
        names = self._names()
        ids = list(t.order) if t.started else [e.id for e in t.entrants]
        anchors = [(names[i], i) for i in ids if i in names]
        return EffectContext(self.effects, self.now(), names, anchors)

    def highlighted_id(self) -> str | None:
        """Return the id of the character under the cursor."""
        table = self.query_one("#rounds-table", DataTable)
        if table.row_count == 0:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return key.value

    # -- drawing --------------------------------------------------------------------------------

    def _row_ids(self) -> list[str]:
        t = self.tracker
        ids = list(t.order) if t.started else [e.id for e in t.entrants]
        return ids + [i for i in self.characters if i not in ids]

    def _redraw(self) -> None:
        t = self.tracker
        clock = f"время сцены: {self.effects.minute} мин"
        system = SYSTEM_NAMES.get(self.system, self.system)
        if t.started:
            actor = self.characters.get(t.actor)
            who = plain(actor.name) if actor else "?"
            head = f"[b]{system} · Раунд {t.round}[/b] · ходит [b]{who}[/b] · {clock}"
        else:
            head = f"[b]{system} · Подготовка боя[/b] · {clock}"
        second = initiative_rule(self.system)
        if self._pending is not None and self._waiting:  # where the write stands (_save)
            second = f"[$warning]Сохраняется: «{plain(self._pending)}»…[/]"
        elif self._failed:
            second = f"[$error]{plain(self._failed)}[/]"
        self.query_one("#rounds-status", Static).update(f"{head}\n{second}")
        table = self.query_one("#rounds-table", DataTable)
        current = self.highlighted_id()
        rows = [(cid, self._row(cid, n)) for n, cid in enumerate(self._row_ids(), start=1)]
        if rows != self._rows:
            table.clear()
            for key, cells in rows:
                table.add_row(*cells, key=key)
            self._rows = rows
        ids = [k for k, _ in rows]
        if t.actor != self._last_actor and t.actor in ids:  # a new turn: the cursor follows
            table.move_cursor(row=ids.index(t.actor))
        elif current in ids:
            table.move_cursor(row=ids.index(current))
        self._last_actor = t.actor
        self.query_one("#rounds-effects", Static).update(self._effects_text())
        self.refresh_bindings()

    def _row(self, cid: str, n: int) -> tuple[str, ...]:
        t = self.tracker
        c = self.characters[cid]
        entrant = t.entrant(cid)
        side = entrant.side if entrant else OUT
        roll = t.rolls.get(cid) or (t.rolls.get(side) if entrant else None)
        number = ("▶ " if cid == t.actor else "") + (str(n) if cid in t.order else "")
        labels = [e.label for e in self.effects.on(cid)]
        return (
            number,
            side,
            c.name,
            roll.text if roll else "",
            self._harm_text(c),
            ", ".join(labels),
        )

    def _harm_text(self, c: Character) -> str:
        if self.system != "wod":
            return str(c.extra.get("harm", ""))
        try:
            total = wod_health.boxes(c.qualities)
            track = health_track(c)
            pen = wod_health.penalty(track, total)
        except RulesError as err:
            return str(err)
        return wod_health.compact(track, total) + (f" {pen}".replace("-", "−") if pen else "")

    def _effects_text(self) -> str:
        if not self.effects.effects:
            return "[dim]Эффектов нет · e — добавить (на участника или на сцену)[/]"
        names = self._names()
        lines = ["[b]Эффекты[/b]"]
        for e in self.effects.effects:
            whom = names.get(e.target, "?") if e.target else "сцена"
            left = remaining_text(e, self.tracker.round, self.effects.minute, names)
            repeat = ""
            if e.repeat_every:
                unit = "р." if e.repeat_unit == "round" else "мин"
                repeat = f" · каждые {e.repeat_every} {unit}: {e.repeat_text or e.name}"
            hidden = " · [i]скрыт[/i]" if e.hidden else ""
            lines.append(f"• {plain(e.label)} ({plain(whom)}) — {left}{plain(repeat)}{hidden}")
        return "\n".join(lines)

    # -- keys -----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        started = self.tracker.started
        if action == "cycle_side":
            return not started and bool(self.characters)
        if action == "initiative":
            return not started and bool(self.tracker.entrants)
        if action in ("next_turn", "end_fight"):
            return started
        if action in ("remove_effect", "hide_effect"):
            return bool(self.effects.effects)
        if action == "heal":
            return self.system == "wod" and bool(self.characters)
        if action == "against":
            return started and len(self._opponents()) > 0
        if action in ("check", "harm", "add_effect"):
            return bool(self.characters)
        return True

    def focus_first(self) -> None:
        """Focus the table (the app calls this when the tab opens)."""
        focus_now(self.query_one("#rounds-table", DataTable))

    # -- writing --------------------------------------------------------------------------------

    def _save(
        self,
        label: str,
        *,
        tracker: Tracker | None = None,
        effects: EffectSet | None = None,
        upsert: Sequence[Character] = (),
        then: Callable[[str], object] | None = None,
    ) -> bool:
        """Write the tracker, the effects and characters as one undo step, in a worker.

        The UI never waits for the campaign's lock: the status line says the write is being
        saved, and the pane changes only through the store's notification; then
        ``then(step)`` runs with the id of the step (for its Журнал lines). A write that
        fails changes nothing on screen: the GM is told why, the status line says what was
        not saved. While one write is pending the next is refused (False): it would be made
        from a state the store does not have yet, and a key pressed twice must not apply
        twice.
        """
        if self._pending is not None:
            self.app.notify(
                f"Подождите: ещё сохраняется «{self._pending}» — повторите, когда сохранится.",
                severity="warning",
                timeout=5,
            )
            return False
        docs: dict[str, Any] = {}
        if tracker is not None:
            docs[ROUNDS_DOC] = tracker.to_dict()
        if effects is not None:
            docs[EFFECTS_DOC] = effects.to_dict()
        store, changed = self.store, list(upsert)
        # A delta against what the pane showed: another window's change to the fight or the
        # effects stays, and a change to the same part is refused with a message.
        bases = {name: self._read.get(name) for name in docs}
        self._pending, self._failed, self._waiting = label, "", False
        self._writes += 1
        self._show_waiting_later()

        def job() -> str:
            try:
                store.apply(label, upsert=changed, docs=docs, bases=bases, what=NOT_SAVED)
            except (StoreError, RulesError):
                raise
            except Exception as err:  # noqa: BLE001 - the pane must not stay «pending»
                raise StoreError(f"Ошибка при записи: {err}. Кампания не изменилась.") from err
            return str(store.take_last_step() or "")  # the writer thread's step

        def done(step: str) -> None:
            self._pending, self._waiting = None, False
            self._redraw()
            if then is not None:
                then(step)

        def failed(err: Exception) -> None:
            self._pending, self._waiting = None, False
            self._failed = f"Не сохранено «{label}»: {err}"
            self.app.notify(str(err), severity="error", timeout=10)
            self._redraw()

        self.app.write(job, done, failed=failed)  # type: ignore[attr-defined]
        self._redraw()
        return True

    def _show_waiting_later(self) -> None:
        """Say «Сохраняется…» only for a write that waits (for another kubik's lock): most
        take milliseconds, and the status line should not flicker for them."""
        token = self._writes

        def waiting() -> None:
            if self._pending is not None and self._writes == token:
                self._waiting = True
                self._redraw()

        self.set_timer(SHOW_WAITING_AFTER, waiting)

    def _log(
        self, actor: str | None, text: str, data: dict[str, Any] | None = None, step: str = ""
    ) -> None:
        payload = {"system": self.system, "round": self.tracker.round, **(data or {})}
        self.app.record("combat", actor, text, payload, step)  # type: ignore[attr-defined]

    def _announce(self, notices: list[Notice], step: str = "") -> None:
        self.announce(notices, self._names(), step)

    # -- actions --------------------------------------------------------------------------------

    def action_cycle_side(self) -> None:
        """Move the highlighted character to the next side («—»: not in the fight)."""
        cid = self.highlighted_id()
        c = self.characters.get(cid or "")
        if c is None:
            return
        entrant = self.tracker.entrant(c.id)
        side = entrant.side if entrant else OUT
        new_side = SIDE_CYCLE[(SIDE_CYCLE.index(side) + 1) % len(SIDE_CYCLE)]
        if new_side == OUT:
            tracker = self.tracker.without(c.id)
        else:
            tracker = self.tracker.with_entrant(Entrant(c.id, c.name, new_side, c.kind == "pc"))
            # keep the roster's order: re-adding moved it to the end
            order = [e.id for e in self.tracker.entrants] + [c.id]
            tracker = replace(
                tracker, entrants=tuple(sorted(tracker.entrants, key=lambda e: order.index(e.id)))
            )
        self._save(f"{c.name}: сторона «{new_side}»", tracker=tracker)

    def _fighter(self, e: Entrant) -> Fighter:
        c = self.characters[e.id]
        initiative = c.extra.get("initiative")
        return Fighter(
            e.id,
            c.name,
            e.side,
            c.kind == "pc",
            dict(c.qualities),
            {s.name: s.value for s in c.skills},
            int(initiative) if isinstance(initiative, int) else None,
            int(c.extra.get("energy", 100)),
            character_modifiers(self.store, c),
        )

    def action_initiative(self) -> None:
        """Roll initiative the system's way and begin round 1."""
        fighters = [self._fighter(e) for e in self.tracker.entrants if e.id in self.characters]
        try:
            order, rolls = rounds.roll_initiative(self.system, fighters, self.app.rng)  # type: ignore[attr-defined]
            tracker, events = self.tracker.start(order, rolls)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        effects, notices = tick_all(self.effects, events, tracker.order)
        names = self._names()
        ranked = " → ".join(f"{names.get(k, k)} ({r.text})" for k, r in rolls.items())
        data = {
            "initiative": {k: r.to_dict() for k, r in rolls.items()},
            "order": list(order),
            "names": {k: names.get(k, k) for k in rolls},  # the luck ledger names who rolled
        }

        def saved(step: str) -> None:  # the pane shows the stored tracker by now
            self._log(None, f"Инициатива ({SYSTEM_NAMES[self.system]}): {ranked}", data, step)
            self._announce(notices, step)

        self._save("Инициатива, раунд 1", tracker=tracker, effects=effects, then=saved)

    def action_next_turn(self) -> None:
        """End the current turn; effects tick; a new round after the last one."""
        try:
            tracker, events = self.tracker.next_turn()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        effects, notices = tick_all(self.effects, events, tracker.order)
        who = self._names().get(tracker.actor, "?")
        label = f"Раунд {tracker.round}, ход: {who}"
        new_round = tracker.round != self.tracker.round  # before the save redraws the pane

        def saved(step: str) -> None:
            if new_round:
                self._log(None, f"Раунд {tracker.round}", step=step)
            self._announce(notices, step)

        self._save(label, tracker=tracker, effects=effects, then=saved)

    def action_end_fight(self) -> None:
        """End the fight; the effects counted in rounds and turns end with it."""
        ended = [e for e in self.effects.effects if e.duration in COMBAT_DURATIONS]
        effects = self.effects
        for e in ended:
            effects = effects.without(e.id)

        def saved(step: str) -> None:
            self._log(None, "Конец боя", step=step)
            self._announce([Notice("expired", e) for e in ended], step)

        self._save("Конец боя", tracker=self.tracker.end(), effects=effects, then=saved)

    async def action_check(self) -> None:
        """Open the highlighted one's check in this system's builder; on the actor's turn its
        opposed check faces the first opponent in the order (``o`` names another)."""
        cid = self.highlighted_id() or self.tracker.actor
        if cid not in self.characters:
            return
        opponents = self._opponents() if cid == self.tracker.actor else []
        await self._open_turn(Turn(cid, opponents[0] if opponents else None))

    def action_against(self) -> None:
        """The actor's opposed check against the highlighted combatant (else one chosen)."""
        opponents = self._opponents()
        if not opponents:
            return
        actor = self.tracker.actor
        target = self.highlighted_id()
        if target in self.characters and target != actor and self.tracker.entrant(target or ""):
            self.run_worker(self._open_turn(Turn(actor, target), opposed=True))
            return
        if len(opponents) == 1:
            self.run_worker(self._open_turn(Turn(actor, opponents[0]), opposed=True))
            return

        def chosen(target: str | None) -> None:
            if target is not None:
                self.run_worker(self._open_turn(Turn(actor, target), opposed=True))

        names = self._names()
        choices = [Choice(names.get(cid, "?"), cid) for cid in opponents]
        title = f"{names.get(actor, '?')}: против кого?"
        self.app.push_screen(ChoiceScreen(title, choices), chosen)

    def _opponents(self) -> list[str]:
        """The actor's opponents in the order: entrants of the other sides, then of its own."""
        t = self.tracker
        me = t.entrant(t.actor) if t.started else None
        if me is None:
            return []
        ids = [i for i in t.order if i != t.actor and i in self.characters and t.entrant(i)]
        return sorted(ids, key=lambda i: t.entrant(i).side == me.side)  # type: ignore[union-attr]

    async def _open_turn(self, turn: Turn, *, opposed: bool = False) -> None:
        builder = await self.app.ensure_pane("check")  # type: ignore[attr-defined]
        self.app.query_one("#tabs").active = "check"
        open_turn(builder, self.system, turn, opposed=opposed)

    def _highlighted(self) -> Character | None:
        return self.characters.get(self.highlighted_id() or "")

    def action_harm(self) -> None:
        """Мир Тьмы: mark a box of damage; IDE4 / Старатели: write the harm note."""
        c = self._highlighted()
        if c is None:
            return
        if self.system == "wod":
            self._wod_damage(c)
            return
        from tui.widgets.common.prompt import TextPrompt

        def noted(note: str | None) -> None:
            if note is None:
                return
            changed = replace(c, extra={**c.extra, "harm": note})
            text = f"Вред: {note}" if note else "Вред снят"
            self._save(
                f"{c.name}: вред",
                upsert=[changed],
                then=lambda step: self._log(c.name, text, step=step),
            )

        self.app.push_screen(
            TextPrompt(f"{c.name}: вред (заметка; пусто — снять)", "сломана рука", required=False),
            noted,
        )

    def _wod_damage(self, c: Character) -> None:
        rules = wod_health.rules()

        def chosen(kind: str | None) -> None:
            if kind is None:
                return
            total = wod_health.boxes(c.qualities)
            track = wod_health.damage(health_track(c), kind, total)
            self._save_health(c, track, f"урон: {rules.names[kind]}")

        choices = [Choice(f"{rules.names[k]} {rules.marks[k]}", k) for k in rules.kinds]
        self.app.push_screen(ChoiceScreen(f"{c.name}: какой урон?", choices), chosen)

    def _save_health(self, c: Character, track: list[str], what: str) -> None:
        total = wod_health.boxes(c.qualities)
        changed = replace(c, extra={**c.extra, "health": track})
        pen = wod_health.penalty(track, total)
        shown = f", штраф {pen}".replace("-", "−") if pen else ""
        text = f"Здоровье, {what}: {wod_health.render(track, total)}{shown}"
        self._save(
            f"{c.name}: {what}",
            upsert=[changed],
            then=lambda step: self._log(c.name, text, step=step),
        )

    def action_heal(self) -> None:
        """Мир Тьмы: clear the mildest box of the highlighted character's health."""
        c = self._highlighted()
        if c is None or self.system != "wod":
            return
        track = health_track(c)
        if not track:
            self.app.notify(f"{c.name}: здоровье не задето — лечить нечего.")
            return
        self._save_health(c, wod_health.heal(track), "лечение")

    @on(DataTable.RowSelected, "#rounds-table")
    async def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        await self.action_check()
