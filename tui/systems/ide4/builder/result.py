"""The IDE4™ builder after the roll: the result area (every step so far, then the moves still
allowed or a filled template, the other template beside them), concluding the check (meaning and
consequences), switching between the moves and the quick / full templates, copying one.
"""

from __future__ import annotations

from textual.containers import Vertical
from textual.widgets import Static

from tui.sanitize import plain as escape  # every «[» literal, no control code
from tui.systems.ide4.builder.dialogs import ConcludeScreen
from tui.systems.ide4.builder.part import Ide4Part
from tui.systems.ide4.check import steps
from tui.systems.ide4.check.view import Ide4View
from tui.widgets.common.text import show_markup

TEMPLATE_NAMES = {"quick": "Быстрый шаблон", "full": "Полный шаблон"}


class ResultMixin(Ide4Part):
    """The ``result`` and ``done`` phases' area of ``Ide4Builder`` (the moves: ``ide4_moves``)."""

    def _level_template(self) -> str:
        return "quick" if self.shown.level == "quick" else "full"

    def _show_result(self, shown: Ide4View) -> None:
        """Draw the result area from the engine's view: the steps, then the moves (each
        allowed one with what it is worth) or a template."""
        if shown.check is None:
            return
        show_markup(self.query_one("#ide4-steps", Static), "\n".join(shown.result_lines()))
        if self.view == "moves" and self.phase == "result":
            lines = shown.move_lines()
        else:
            view = self.view if self.view != "moves" else self._level_template()
            title = f"[b]{TEMPLATE_NAMES[view]}[/b] · y — копировать · t — другой вид"
            lines = [(0, title), *((0, escape(t)) for t in shown.template(view).splitlines())]
        side = "full" if self.view != "full" else "quick"
        show_markup(
            self.query_one("#ide4-side-template", Static),
            f"[b]{TEMPLATE_NAMES[side]}[/b] (заполняется по ходу)\n{escape(shown.template(side))}",
        )
        self._show_moves(lines)

    def _show_moves(self, lines: list[tuple[int, str]]) -> None:
        """Show ``lines`` (indent, markup) below the steps. The widgets already there are
        given their new lines (a step changes a few of them, and mounting a widget is ~1 ms);
        only the lines beyond them get new widgets, and the widgets beyond the lines go."""
        moves = self.query_one("#ide4-moves", Vertical)
        shown: list[Static] = getattr(self, "_moves_shown", [])
        if not all(w.is_mounted and w.parent is moves for w in shown):
            shown = []  # not (yet) on screen: start again
            moves.remove_children()
        kept = shown[: len(lines)]
        for widget, (indent, text) in zip(kept, lines, strict=False):
            cls = f"indent-{indent}"
            if not widget.has_class(cls):
                widget.set_classes(cls)
            show_markup(widget, text)
        if len(shown) > len(lines):
            moves.remove_children(shown[len(lines) :])
        added = [Static(text, classes=f"indent-{indent}") for indent, text in lines[len(kept) :]]
        if added:
            moves.mount_all(added)
        self._moves_shown = kept + added

    def action_conclude(self) -> None:
        """Record the meaning and the consequences, then show the level's template."""
        check = self.check
        if check is None or self.phase != "result":
            return

        def done(words: tuple[str, str] | None) -> None:
            if words is not None:
                self.step(steps.conclude, *words)

        self.app.push_screen(ConcludeScreen(check.outcome_name or "—"), done)

    def action_template(self) -> None:
        """Cycle what the result area shows: the moves, the quick template, the full one."""
        views = ["moves", "quick", "full"] if self.phase == "result" else ["quick", "full"]
        self.view = (
            views[(views.index(self.view) + 1) % len(views)] if self.view in views else "full"
        )
        self.redraw()

    def action_copy(self) -> None:
        """Copy the template shown (OSC 52) so it can be pasted into notes or a chat."""
        shown = self.shown
        if shown.check is None:
            return
        which = self.view if self.view != "moves" else self._level_template()
        self.app.copy_to_clipboard(shown.template(which))
        self.app.notify(f"Шаблон скопирован ({TEMPLATE_NAMES[which].lower()}).", timeout=3)
