"""Effect keys shared by the round tracker's Бой tab and the Партия tab (every system, Древо
included): add an effect, remove one, hide one from the players, advance the scene clock.

A pane mixes :class:`EffectKeys` in and has ``highlighted_id()``; it may override
:meth:`EffectKeys.effect_context` (the round tracker knows whose turn it is). Every change is
one store write (one undo step); expiries and repeats that come due are written to the log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from textual.binding import Binding

from tui.store import Character

if TYPE_CHECKING:  # the party tab is the first screen: the rules load on the first use
    from rules.effects import EffectSet, EffectSpec, Notice, Now

EFFECTS_DOC = "effects"
ROUNDS_DOC = "rounds"

MAX_MINUTES = 24 * 60


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


@dataclass(frozen=True)
class EffectContext:
    """What the effect keys need to know: the effects, where time stands, who can end one."""

    effects: EffectSet
    now: Now
    names: dict[str, str]
    anchors: list[tuple[str, str]]


class EffectKeys:
    """The effect actions (mixed into a pane)."""

    def effect_context(self) -> EffectContext:
        """Return the effects and the fight as the store has them."""
        from rules.effects import Now
        from rules.errors import RulesError
        from tui.bridge.effects import load_effects

        store = self.app.store  # type: ignore[attr-defined]
        effects = load_effects(store)
        names = {c.id: c.name for c in store.characters()}
        rnd, actor, order = 0, "", list(names)
        doc = store.get_doc(ROUNDS_DOC) if store.campaign.system != "drevo" else None
        if doc:
            from rules.rounds import Tracker

            try:
                t = Tracker.from_dict(doc)
                rnd, actor, order = t.round, t.actor, list(t.order) or order
            except RulesError:
                pass
        elif store.campaign.system == "drevo":
            rnd = int((store.get_doc("encounter") or {}).get("round", 0) or 0)
        anchors = [(names[i], i) for i in order if i in names]
        return EffectContext(effects, Now(rnd, actor, effects.minute), names, anchors)

    # -- writing -------------------------------------------------------------------------------

    def save_effects(
        self,
        label: str,
        effects: EffectSet,
        docs: dict[str, Any] | None = None,
        upsert: Sequence[Character] = (),
        then: Callable[[str], object] | None = None,
    ) -> None:
        """Write the effects (and other documents) as one undo step, in the app's writer.

        The UI never waits for the campaign's lock; the panes change through the store's
        notification. ``then(step)`` runs once it is saved, with the id of the step (for
        its Журнал lines); a refused write is explained and changes nothing.
        """
        app = self.app  # type: ignore[attr-defined]
        store = app.store
        changes = {**(docs or {}), EFFECTS_DOC: effects.to_dict()}
        # A delta against the effects the pane shows (the store's now): an effect another
        # window changed meanwhile is not overwritten; the same change there is refused.
        bases = {EFFECTS_DOC: store.get_doc(EFFECTS_DOC)}

        def job() -> str:
            store.apply(label, upsert=list(upsert), docs=changes, bases=bases)
            return str(store.take_last_step() or "")  # the writer thread's step

        app.write(job, then)

    def log_effect(
        self, actor: str | None, text: str, data: dict[str, Any], step: str = ""
    ) -> None:
        """Write one line of the log about an effect (hidden effects: a secret line);
        ``step``: the undo step it tells of (marked «отменено» while that is undone)."""
        store = self.app.store  # type: ignore[attr-defined]
        payload = {"system": store.campaign.system, **data}
        if data.get("effect", {}).get("hidden"):
            payload["hidden"] = True
        self.app.record("combat", actor, text, payload, step)  # type: ignore[attr-defined]

    def announce(self, notices: list[Notice], names: dict[str, str], step: str = "") -> None:
        """Write each notice to the log and tell the GM (an expiry, a repeat that is due)."""
        for n in notices:
            whom = names.get(n.effect.target, "") if n.effect.target else "сцена"
            text = f"{n.text} ({whom})" if whom else n.text
            self.log_effect(
                names.get(n.effect.target) or None,
                text,
                {"effect": n.effect.to_dict(), "notice": n.kind, "round": n.effect.started_round},
                step,
            )
            severity = "warning" if n.kind == "due" else "information"
            self.app.notify(text, severity=severity)  # type: ignore[attr-defined]

    # -- actions -------------------------------------------------------------------------------

    def action_add_effect(self) -> None:
        """Add an effect to the highlighted character (or to the scene) from a form."""
        from rules.errors import RulesError
        from tui.bridge.effects import left_text
        from tui.widgets.common.effect_form import EffectForm

        ctx = self.effect_context()
        targets = [(name, cid) for cid, name in ctx.names.items()]
        target = self.highlighted_id() or ""  # type: ignore[attr-defined]

        def added(spec: EffectSpec | None) -> None:
            if spec is None:
                return
            try:
                effects, effect = ctx.effects.add(spec, ctx.now)
            except RulesError as err:
                self.app.notify(str(err), severity="error")  # type: ignore[attr-defined]
                return
            whom = ctx.names.get(effect.target, "?") if effect.target else "сцена"
            left = left_text(effect, ctx.now.round, effects.minute, ctx.names)
            text = f"Эффект «{effect.label}» ({whom}): {left}"
            actor, data = ctx.names.get(effect.target), {"effect": effect.to_dict()}
            self.save_effects(
                f"Эффект «{effect.name}» ({whom})",
                effects,
                then=lambda step: self.log_effect(actor, text, data, step),
            )

        form = EffectForm(targets, target, ctx.anchors, ctx.now)
        self.app.push_screen(form, added)  # type: ignore[attr-defined]

    def _choose_effect(self, title: str, then: Any) -> EffectContext:
        from tui.widgets.common.choice import Choice, ChoiceScreen

        ctx = self.effect_context()
        choices = [
            Choice(
                f"{e.label} ({ctx.names.get(e.target, '?') if e.target else 'сцена'})"
                + (" — скрыт" if e.hidden else ""),
                e.id,
            )
            for e in ctx.effects.effects
        ]
        if not choices:
            self.app.notify("Эффектов нет: e или + — добавить.")  # type: ignore[attr-defined]
        else:
            self.app.push_screen(ChoiceScreen(title, choices), then)  # type: ignore[attr-defined]
        return ctx

    def action_remove_effect(self) -> None:
        """Remove an effect the GM picks."""

        def chosen(effect_id: str | None) -> None:
            effect = next((e for e in ctx.effects.effects if e.id == effect_id), None)
            if effect is None:
                return
            data = {"effect": effect.to_dict(), "removed": True}
            label = f"Эффект «{effect.name}» снят"
            self.save_effects(
                label,
                ctx.effects.without(effect.id),
                then=lambda step: self.log_effect(None, label, data, step),
            )

        ctx = self._choose_effect("Снять эффект", chosen)

    def action_hide_effect(self) -> None:
        """Hide an effect from the players' view, or show it again."""

        def chosen(effect_id: str | None) -> None:
            effect = next((e for e in ctx.effects.effects if e.id == effect_id), None)
            if effect is None:
                return
            changed = replace(effect, hidden=not effect.hidden)
            effects = replace(
                ctx.effects,
                effects=tuple(changed if e.id == effect.id else e for e in ctx.effects.effects),
            )
            word = "скрыт от игроков" if changed.hidden else "виден игрокам"
            label = f"Эффект «{effect.name}» {word}"
            self.save_effects(label, effects, then=lambda _step: self.app.notify(label))  # type: ignore[attr-defined]

        ctx = self._choose_effect("Скрыть или показать эффект", chosen)

    def action_clock(self) -> None:
        """Advance the scene clock by the minutes the GM types; repeats and timers tick."""
        from tui.widgets.common.prompt import TextPrompt

        def minutes_of(text: str) -> int | None:
            try:
                minutes = int(text.strip() or "1")
            except ValueError:
                return None
            return minutes if 0 < minutes <= MAX_MINUTES else None

        def refused(text: str) -> str:
            """Said in the prompt, which stays open with the text to fix."""
            if minutes_of(text) is None:
                return f"Время сцены: целое число минут от 1 до {MAX_MINUTES}, например 3."
            return ""

        def typed(text: str | None) -> None:
            minutes = None if text is None else minutes_of(text)
            if minutes is None:
                return
            from rules.effects import ClockStep, tick

            ctx = self.effect_context()
            before = ctx.effects.minute
            effects, notices = tick(ctx.effects, ClockStep(before, before + minutes))
            self.save_effects(
                f"Время сцены +{minutes} мин",
                effects,
                then=lambda step: self.announce(notices, ctx.names, step),
            )

        prompt = TextPrompt(
            "На сколько минут сцены вперёд?",
            "например: 3 (пусто — 1 минута)",
            required=False,
            check=refused,
        )
        self.app.push_screen(prompt, typed)  # type: ignore[attr-defined]


def effects_sheet_line(store: Any, c: Character | None) -> str:
    """Return «\n[b]Эффекты:[/b] Оглушён −1 (ещё 2 раунда), Темнота −2 (сцена)» for a sheet
    (``""`` when nothing is on the character or the scene)."""
    doc = store.get_doc(EFFECTS_DOC)
    if c is None or not doc or not doc.get("effects"):
        return ""  # the usual case: nothing to import, nothing to show
    from tui.bridge.effects import current_round, left_text, load_effects
    from tui.present.rolls import plain

    effects = load_effects(store)
    rnd = current_round(store.campaign.system, store.get_doc)
    names = {x.id: x.name for x in store.characters()}
    parts = []
    for e in effects.effects:
        if e.target not in (c.id, ""):
            continue
        where = "сцена, " if not e.target else ""
        parts.append(f"{e.label} ({where}{left_text(e, rnd, effects.minute, names)})")
    return f"\n[b]Эффекты:[/b] {plain(', '.join(parts))}" if parts else ""
