"""Effect keys shared by the round tracker's Бой tab and the Партия tab (every system, Древо
included): add an effect, remove one, hide one from the players, advance the scene clock.

Each key asks what it needs (the effect form, a choice, the minutes) and makes the engine's
step on the effects as they are now (:mod:`tui.table.effects.steps`); the outcome — the
effects, its Журнал lines — is written as one undo step. A pane mixes :class:`EffectKeys` in
and has ``highlighted_id()``; the round tracker reads the effects it shows and writes
through its own pending write (it overrides :meth:`EffectKeys.effects_read` and
:meth:`EffectKeys.write_effects`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.binding import Binding

from tui.numbers import read_typed_whole
from tui.services import lent
from tui.store import Character
from tui.widgets.common.part import WidgetPart

if TYPE_CHECKING:  # the party tab is the first screen: the engine loads on the first use
    from rules.effects import EffectSet
    from tui.table.core import Outcome
    from tui.table.effects.session import EffectsRead

EFFECTS_DOC = "effects"


def effect_bindings(
    prefix: str,
    add: str,
    remove: str,
    hide: str | None,
    *,
    show: bool = True,
    show_remove: bool = False,
) -> list[Binding]:
    """Return the effect keys with ids ``<prefix>-effect…`` (each pane picks free keys)."""
    keys = [
        Binding(
            add,
            "add_effect",
            "+Эффект",
            id=f"{prefix}-effect",
            tooltip="Эффект с длительностью",
            show=show,
        ),
        Binding(remove, "remove_effect", "Снять", id=f"{prefix}-effect-remove", show=show_remove),
        Binding("m", "clock", "Время +", id=f"{prefix}-clock", tooltip="+N минут", show=show),
    ]
    if hide:
        keys.append(
            Binding(
                hide,
                "hide_effect",
                "Скрыть эффект",
                id=f"{prefix}-effect-hide",
                tooltip="Скрыть эффект от игроков (ещё раз — показать)",
                show=False,
            )
        )
    return keys


def clock_minutes(text: str) -> int | None:
    """The minutes typed to move the scene clock on (blank: one), None when no number: the
    digits 0–9 only (int() read «٣» as 3, «1_0» as 10); the step refuses one out of range."""
    return read_typed_whole(text.strip() or "1")


class EffectKeys(WidgetPart):
    """The effect actions (mixed into a pane)."""

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)

        def highlighted_id(self) -> str | None: ...

    # The services it uses (tui/services/lent.py).
    store = lent.store
    rng = lent.rng
    journal = lent.journal
    writer = lent.writer

    # -- reading and writing (the round tracker overrides both) ---------------------------------

    def effects_read(self) -> EffectsRead:
        """The effects, the world and where the fight stands, as the store has them now."""
        from tui.table.core import Dice
        from tui.table.effects.session import read_effects

        return read_effects(self.store, Dice(self.rng))

    def write_effects(self, outcome: Outcome[EffectSet], read: EffectsRead) -> None:
        """Write an effects step's outcome as one undo step, in the app's writer (the panes
        change through the store's notification; a refused write is explained)."""
        from tui.table.effects.session import write

        store, entry = self.store, self.journal.entry
        self.writer.write(
            lambda: write(store, outcome, read.base, entry), lambda _step: self.tell(outcome)
        )

    def effect_step(self, step: Callable[[EffectsRead], Outcome[EffectSet]]) -> None:
        """Make an effects step on the effects as they are now and write it."""
        read = self.effects_read()
        outcome = step(read)
        if not outcome.ok:
            self.app.notify(outcome.refused, severity="error")
            return
        self.write_effects(outcome, read)

    def tell(self, outcome: Outcome[Any]) -> None:
        """Tell the GM what a written step says: an effect that ended or a repeat due (from
        its Журнал lines), and the step's own notices."""
        for line in outcome.log:
            notice = line.data.get("notice")
            if notice:
                self.app.notify(line.text, severity="warning" if notice == "due" else "information")
        for text in outcome.notices:
            self.app.notify(text)

    # -- actions -------------------------------------------------------------------------------

    def action_add_effect(self) -> None:
        """Add an effect to the highlighted character (or to the scene) from a form."""
        from rules.effects import EffectSpec
        from tui.table.effects import steps
        from tui.widgets.common.effect_form import EffectForm

        read = self.effects_read()
        names = {cid: c.name for cid, c in read.world.characters.items()}
        targets = [(name, cid) for cid, name in names.items()]
        anchors = [(names[i], i) for i in read.time.order if i in names]
        target = self.highlighted_id() or ""

        def refused(spec: EffectSpec) -> str:
            now = self.effects_read()
            return steps.add(now.effects, now.world, spec, now.time).refused

        def added(spec: EffectSpec | None) -> None:
            if spec is not None:
                self.effect_step(lambda r: steps.add(r.effects, r.world, spec, r.time))

        form = EffectForm(targets, target, anchors, refused)
        self.app.push_screen(form, added)

    def _choose_effect(self, title: str, then: Callable[[str | None], None]) -> None:
        from tui.table.effects.view import choice_label, effect_lines
        from tui.widgets.common.choice import Choice, ChoiceScreen

        read = self.effects_read()
        names = {cid: c.name for cid, c in read.world.characters.items()}
        lines = effect_lines(read.effects, read.time.round, names)
        if not lines:
            self.app.notify("Эффектов нет: e или + — добавить.")
            return
        choices = [Choice(choice_label(line), line.id) for line in lines]
        self.app.push_screen(ChoiceScreen(title, choices), then)

    def action_remove_effect(self) -> None:
        """Remove an effect the GM picks."""
        from tui.table.effects import steps

        def chosen(effect_id: str | None) -> None:
            if effect_id is not None:
                self.effect_step(lambda r: steps.remove(r.effects, r.world, effect_id))

        self._choose_effect("Снять эффект", chosen)

    def action_hide_effect(self) -> None:
        """Hide an effect from the players' view, or show it again."""
        from tui.table.effects import steps

        def chosen(effect_id: str | None) -> None:
            if effect_id is not None:
                self.effect_step(lambda r: steps.toggle_hidden(r.effects, r.world, effect_id))

        self._choose_effect("Скрыть или показать эффект", chosen)

    def action_clock(self) -> None:
        """Advance the scene clock by the minutes the GM types; repeats and timers tick."""
        from tui.table.effects import steps
        from tui.widgets.common.prompt import TextPrompt

        def refused(text: str) -> str:
            """Said in the prompt, which stays open with the text to fix."""
            minutes = clock_minutes(text)
            if minutes is None:
                return steps.CLOCK_REFUSED
            read = self.effects_read()
            return steps.advance_clock(read.effects, read.world, minutes).refused

        def typed(text: str | None) -> None:
            minutes = None if text is None else clock_minutes(text)
            if minutes is not None:
                self.effect_step(lambda r: steps.advance_clock(r.effects, r.world, minutes))

        prompt = TextPrompt(
            "На сколько минут сцены вперёд?",
            "например: 3 (пусто — 1 минута)",
            required=False,
            check=refused,
        )
        self.app.push_screen(prompt, typed)


def effects_sheet_line(store: Any, c: Character | None) -> str:
    """Return «\n[b]Эффекты:[/b] Оглушён −1 (ещё 2 раунда), Темнота −2 (сцена, …)» for a sheet
    (``""`` when nothing is on the character or the scene)."""
    doc = store.get_doc(EFFECTS_DOC)
    if c is None or not doc or not doc.get("effects"):
        return ""  # the usual case: nothing to import, nothing to show
    from tui.bridge.effects import load_effects
    from tui.present.rolls import plain
    from tui.table.effects.time import fight_time
    from tui.table.effects.view import sheet_effects

    characters = {x.id: x for x in store.characters()}
    names = {cid: x.name for cid, x in characters.items()}
    time = fight_time(store.campaign.system, store.get_doc, characters)
    text = sheet_effects(load_effects(store), time.round, names, c.id)
    return f"\n[b]Эффекты:[/b] {plain(text)}" if text else ""
