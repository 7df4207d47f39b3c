"""Pieces of the Старатели builder: its rows, what a character offers, the text of a rolled
check, and the pop-ups (Risk, the task chain, the group check). ``builder_starately`` holds the
builder itself."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from rules import starately
from rules.errors import RulesError
from tui.present.rolls import percent, plain, signed, term
from tui.store import Character
from tui.widgets.builders.base import character_label
from tui.widgets.builders.dicefaces import d6_faces
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup

OUTCOME_STYLE = {"success": "$success", "failure": "$error"}
COUNT_OPTIONS = [(str(k), k) for k in range(4)]
IDLE = "Enter — бросить · h — помощник · g — группа · o — встречный\nпосле провала r — Риск"
DICE_LABELS = {-1: "3d6 (−d6)", 0: "2d6", 1: "3d6 (+d6)"}
UNSKILLED = ""  # the skill row's value for «без навыка»


class Row(Stepper):
    """A stepper whose label column fits «Характеристика» (or ``label_width``)."""

    label_width = 15

    def render(self) -> Content:
        """Draw ``Label  ◀ value ▶`` with a wider label column (plain text, as Stepper)."""
        shown = self._options[self.index][0] if self._options else "—"
        return Content(f"{self.label:<{self.label_width}}◀ {shown} ▶")


class WideRow(Row):
    """A row for a helper's name and skill."""

    label_width = 40


def dice_note(side: Any) -> str:
    """Say how the +d6 and −d6 cancel and how many dice are rolled (never more than 3)."""
    if not side.boons and not side.banes:
        return "2d6"
    net = DICE_LABELS[side.net_dice]
    return f"+d6 ×{side.boons}, −d6 ×{side.banes} → {net}"


# --- what a character offers -------------------------------------------------------------------


def characteristic_options(c: Character) -> list[tuple[str, str]]:
    """Return the characteristics as ``Ловкость 10 (DM +1)``."""
    options = []
    for name, value in c.qualities.items():
        try:
            dm = signed(starately.characteristic_dm(value))
        except RulesError:
            dm = "?"
        options.append((f"{name} {value} (DM {dm})", name))
    return options


def skill_options(c: Character) -> list[tuple[str, str]]:
    """Return the skills as ``Стрельба-3``, then «без навыка (−3)»."""
    options = [(f"{s.name}-{s.value}", s.name) for s in c.skills]
    options.append((f"без навыка ({signed(starately.unskilled_penalty())})", UNSKILLED))
    return options


def side_for(c: Character, characteristic: str | None, skill_name: str, **kwargs: Any) -> Any:
    """Build a ``starately.Side`` for ``c`` rolling ``characteristic`` + ``skill_name``.

    Raises:
        RulesError: no such characteristic, or values outside the tables.
    """
    if not characteristic or characteristic not in c.qualities:
        raise RulesError(f"У персонажа «{c.name}» нет характеристики для броска.")
    skill = c.skill(skill_name) if skill_name else None
    return starately.Side.of(
        c.qualities[characteristic],
        skill.value if skill else None,
        name=c.name,
        characteristic=characteristic,
        skill_name=skill.name if skill else "",
        pc=c.kind == "pc",
        **kwargs,
    )


# --- rendering ---------------------------------------------------------------------------------


def bonus_terms(side: Any) -> str:
    """Return what is added to the dice: ``Ловкость +1, Стрельба +3, темнота −2``."""
    parts = [f"{side.characteristic or 'DM'} {signed(side.dm)}"]
    if side.skill is None:
        tried = f" «{side.skill_name}»" if side.skill_name else ""
        parts.append(f"без навыка{tried} {signed(side.unskilled)}")
    else:
        parts.append(f"{side.skill_name or 'навык'} {signed(side.skill)}")
    parts += [f"{m.reason} {signed(m.value)}" for m in side.modifiers]
    return ", ".join(parts)


def auto_note(result: Any) -> str:
    """Explain a natural 12 or 2, saying so when it overruled the total (`` — …`` or empty)."""
    if not result.auto:
        return ""
    reached = result.total >= result.check.difficulty
    if result.success:
        why = "хотя итог ниже сложности" if not reached else "при любом итоге"
        return f" — натуральные 12: успех {why}"
    why = "хотя итог достаточен" if reached else "при любом итоге"
    return f" — натуральные 2: провал {why}"


def result_lines(result: Any, title: str = "") -> list[str]:
    """Return markup lines of one rolled check: dice, total, Effect and outcome."""
    check, side = result.check, result.check.side
    dropped = [d.value for d in result.dice if not d.kept]
    head = plain(title or side.name or "Бросок")
    style = OUTCOME_STYLE[result.outcome]
    lines = [
        f"[b]{head}[/b]: {DICE_LABELS[side.net_dice]} {d6_faces(result.dice)}"
        + (f" [dim]— ({dropped[0]}) не в счёт[/]" if dropped else ""),
        f"Натуральные {result.natural} {signed(side.bonus)} = [b]{result.total}[/b] "
        f"против {check.difficulty}+ ({starately.difficulty_name(check.difficulty)})",
        f"Эффект [b]{signed(result.effect)}[/b] — [b {style}]"
        f"{starately.OUTCOME_NAMES[result.outcome]}[/]",
    ]
    if result.auto:
        lines.append(f"[{style}]{auto_note(result).removeprefix(' — ')}[/]")
    return lines


def summary(result: Any) -> str:
    """Return one plain log line of a rolled check."""
    side, check = result.check.side, result.check
    if side.skill is None:
        skill = f"без навыка «{side.skill_name}»" if side.skill_name else "без навыка"
    else:
        skill = f"{side.skill_name}-{side.skill}"
    return (
        f"{skill}, {side.characteristic} (DM {signed(side.dm)}): "
        f"{d6_faces(result.dice, markup=False)} = {result.natural}{term(side.bonus)} → "
        f"{result.total} против {check.difficulty}+: "
        f"{starately.OUTCOME_NAMES[result.outcome]}, Эффект {signed(result.effect)}"
        + auto_note(result)
    )


def effect_rows(check: Any, odds: Any) -> list[tuple[str, Fraction, str]]:
    """Return the Effect distribution as rows coloured by the outcome each Effect gives."""
    table = starately.settings()
    rows = []
    for effect, p in odds.effect.items():
        natural = effect + check.difficulty - check.side.bonus
        if natural == table.natural_success:
            success = True
        elif natural == table.natural_failure:
            success = False
        else:
            success = effect >= 0
        rows.append((signed(effect), p, OUTCOME_STYLE["success" if success else "failure"]))
    return rows


def natural_note(check: Any, odds: Any) -> str:
    """Say what natural 12 and natural 2 do for this check."""
    table = starately.settings()
    bonus, difficulty = check.side.bonus, check.difficulty
    if table.natural_success + bonus < difficulty:
        return f"Успех только на натуральных 12: {percent(odds.natural_success)}"
    if table.natural_failure + bonus >= difficulty:
        return f"Провал только на натуральных 2: {percent(odds.natural_failure)}"
    return (
        f"Нат. 12 → успех, нат. 2 → провал: "
        f"{percent(odds.natural_success)} / {percent(odds.natural_failure)}"
    )


# --- modal screens -----------------------------------------------------------------------------

MODAL_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 72; max-width: 100%; height: auto; max-height: 100%;
    border: round $warning; background: $surface; padding: 0 1;
}}
{name} Input {{ margin: 1 0 0 0; }}
{name} Horizontal {{ height: auto; margin: 1 0 0 0; }}
{name} Button {{ margin: 0 1 0 0; }}
"""


class RiskScreen(ModalScreen[tuple[str, bool] | None]):
    """Ask the GM for the price of Risk (required), or let them forbid it."""

    DEFAULT_CSS = MODAL_CSS.format(name="RiskScreen")
    ENTER_TEXT = {"risk-price": "Рискнуть"}  # the key bar says what Enter does in the field
    BINDINGS = [Binding("escape", "cancel", "Отмена", id="risk-cancel")]

    def __init__(self, first: Any) -> None:
        super().__init__()
        self.first = first

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                "[b]Риск[/b]: проверка бросается ещё раз. Цену ведущий назначает заранее, "
                "и она платится при любом исходе (потеря снаряжения, урон…). "
                "Если значимой цены нет — Риск можно запретить."
            )
            yield Input(
                placeholder="цена, например: тратится единственная аптечка", id="risk-price"
            )
            with Horizontal():
                yield Button("Рискнуть (Enter)", id="risk-go", variant="warning")
                yield Button("Запретить", id="risk-forbid", variant="error")
                yield Button("Отмена (Esc)", id="risk-cancel")

    @on(Input.Submitted, "#risk-price")
    @on(Button.Pressed, "#risk-go")
    def _go(self) -> None:
        price = self.query_one("#risk-price", Input).value
        refusal = starately.risk_refusal(self.first, price)
        if refusal is not None:
            self.app.notify(refusal, severity="error")
            return
        self.dismiss((price, False))

    @on(Button.Pressed, "#risk-forbid")
    def _forbid(self) -> None:
        self.dismiss(("", True))

    @on(Button.Pressed, "#risk-cancel")
    def action_cancel(self) -> None:
        """Close without Risk."""
        self.dismiss(None)


class ChainScreen(ModalScreen[Any]):
    """Choose the chain helper: character, characteristic and skill; Enter rolls both."""

    DEFAULT_CSS = MODAL_CSS.format(name="ChainScreen")
    BINDINGS = [
        Binding("enter", "go", "Бросить", id="chain-go"),
        Binding("escape", "cancel", "Отмена", id="chain-cancel"),
    ]

    def __init__(self, characters: Sequence[Character], main: Any, default: str | None) -> None:
        super().__init__()
        self.characters = {c.id: c for c in characters}
        self.main = main
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="chain-title")
            yield Row("Помощник", id="chain-character")
            yield Row("Характеристика", id="chain-characteristic")
            yield Row("Навык", id="chain-skill")
            yield Static(id="chain-odds")
            yield Static("[dim]Enter — бросить помощника, затем основной бросок · Esc — отмена[/]")

    def on_mount(self) -> None:
        main = self.main
        helper_difficulty = starately.chain_difficulty(main.difficulty)
        show_markup(
            self.query_one("#chain-title", Static),
            f"[b]Цепочка[/b]: помощник бросает другой навык на {helper_difficulty}+ "
            f"(на шаг ниже {main.difficulty}+); его Эффект, даже отрицательный, "
            f"станет модификатором основного броска ({plain(main.side.name)}).",
        )
        stepper = self.query_one("#chain-character", Row)
        stepper.set_options(
            [(character_label(c), c.id) for c in self.characters.values()], self.default
        )
        self._refresh_traits()
        stepper.focus()

    @on(Stepper.Changed, "#chain-character")
    def _refresh_traits(self) -> None:
        c = self.characters.get(self.query_one("#chain-character", Row).value)
        if c is None:
            return
        self.query_one("#chain-characteristic", Row).set_options(characteristic_options(c))
        self.query_one("#chain-skill", Row).set_options(skill_options(c))
        self._recompute()

    @on(Stepper.Changed, "#chain-characteristic")
    @on(Stepper.Changed, "#chain-skill")
    def _recompute(self) -> None:
        info = self.query_one("#chain-odds", Static)
        try:
            chain = starately.TaskChain(self.helper(), self.main)
        except RulesError as err:
            show_markup(info, f"[$error]{plain(str(err))}[/]")
            return
        helper = starately.check_odds(chain.helper_check).outcomes["success"]
        alone = starately.check_odds(self.main).outcomes["success"]
        helped = starately.chain_odds(chain).outcomes["success"]
        show_markup(
            info,
            f"Помощник: успех {percent(helper)} на {chain.helper_check.difficulty}+\n"
            f"Основной бросок: успех [b]{percent(helped)}[/b] с помощью "
            f"(без неё {percent(alone)})",
        )

    def helper(self) -> Any:
        """Return the helper's side from the rows (raises RulesError)."""
        c = self.characters.get(self.query_one("#chain-character", Row).value)
        if c is None:
            raise RulesError("Выберите помощника.")
        return side_for(
            c,
            self.query_one("#chain-characteristic", Row).value,
            self.query_one("#chain-skill", Row).value or UNSKILLED,
        )

    def action_go(self) -> None:
        """Roll with the chosen helper."""
        try:
            helper = self.helper()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        self.dismiss(helper)

    def action_cancel(self) -> None:
        """Close without rolling."""
        self.dismiss(None)


def helper_label(helper: Any) -> str:
    """Return «Сергей: Медицина-1, Интеллект 8 (DM +0)» — the helper's skill and
    characteristic (helpers roll the main roller's characteristic)."""
    value = "" if helper.characteristic_value is None else f" {helper.characteristic_value}"
    return (
        f"{helper.name}: {helper.skill_name}-{helper.skill}, "
        f"{helper.characteristic}{value} (DM {signed(helper.dm)})"
    )


class GroupScreen(ModalScreen[Any]):
    """Pick which helpers (same skill at level 1+) join; Enter rolls everyone."""

    DEFAULT_CSS = MODAL_CSS.format(name="GroupScreen")
    BINDINGS = [
        Binding("enter", "go", "Бросить", id="group-go"),
        Binding("escape", "cancel", "Отмена", id="group-cancel"),
    ]

    def __init__(self, main: Any, candidates: Sequence[Any], refused: Sequence[str] = ()) -> None:
        super().__init__()
        self.main = main
        self.candidates = list(candidates)
        self.refused = list(refused)

    def compose(self) -> ComposeResult:
        side = self.main.side
        with Vertical():
            yield Static(
                f"[b]Групповая проверка[/b]: {plain(side.name)} бросает "
                f"«{plain(side.skill_name)}» на {self.main.difficulty}+; каждый успех помощника "
                f"даёт +1, провал ничего не стоит. Помогают только те, у кого "
                f"«{plain(side.skill_name)}» от 1-го уровня."
            )
            for i, helper in enumerate(self.candidates):
                yield WideRow(
                    helper_label(helper),
                    [("помогает", True), ("не помогает", False)],
                    id=f"group-{i}",
                )
            if self.refused:
                yield Static(
                    "\n".join(f"[$warning]✗ {plain(r)}[/]" for r in self.refused),
                    id="group-refused",
                )
            yield Static(id="group-odds")
            yield Static("[dim]←/→ — помогает или нет · Enter — бросить · Esc — отмена[/]")

    def on_mount(self) -> None:
        self.query_one("#group-0", Row).focus()
        self._recompute()

    def helpers(self) -> tuple[Any, ...]:
        """Return the helpers the GM kept."""
        return tuple(
            h for i, h in enumerate(self.candidates) if self.query_one(f"#group-{i}", Row).value
        )

    @on(Stepper.Changed)
    def _recompute(self) -> None:
        group = starately.GroupCheck(self.main, self.helpers())
        helped = starately.group_odds(group).outcomes["success"]
        alone = starately.check_odds(self.main).outcomes["success"]
        show_markup(
            self.query_one("#group-odds", Static),
            f"Основной бросок: успех [b]{percent(helped)}[/b] с помощью (без неё {percent(alone)})",
        )

    def action_go(self) -> None:
        """Roll the group."""
        self.dismiss(self.helpers())

    def action_cancel(self) -> None:
        """Close without rolling."""
        self.dismiss(None)
