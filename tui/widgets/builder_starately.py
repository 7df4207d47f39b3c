"""The Проверка tab for Старатели: the 2d6 check builder, Risk, the task chain, the group check.

Rows: character → characteristic → skill (or none, −3) → difficulty → +d6/−d6 → modifiers.
The odds (success/failure, natural 12/2, with Risk) and the Effect distribution are exact and
redrawn on every change; Enter rolls. After a failure ``r`` declares Risk (the GM names the
price or forbids it); ``h`` lets a helper prepare the way (task chain), ``g`` calls helpers
with the same skill (group check).
"""

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
from textual.widgets import Button, Input, Label, Rule, Static

from rules import starately
from rules.errors import RulesError
from rules.modifiers import parse_modifiers
from tui.render import percent, plain, signed
from tui.store import Character
from tui.widgets.builder import CharacterPicker, CheckRolled, character_label
from tui.widgets.dicefaces import DistributionBars, ModsInput, StyledOddsBars, d6_faces
from tui.widgets.stepper import Stepper
from tui.widgets.text import show_markup

OUTCOME_STYLE = {"success": "$success", "failure": "$error"}
DICE_OPTIONS = [
    ("−d6: 3d6, два меньших", -1),
    ("нет: 2d6", 0),
    ("+d6: 3d6, два больших", 1),
]
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

    label_width = 28


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
        parts.append(f"без навыка {signed(side.unskilled)}")
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
    skill = "без навыка" if side.skill is None else f"{side.skill_name}-{side.skill}"
    return (
        f"{skill}, {side.characteristic} (DM {signed(side.dm)}): "
        f"{d6_faces(result.dice, markup=False)} = {result.natural} {signed(side.bonus)} → "
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


class GroupScreen(ModalScreen[Any]):
    """Pick which helpers (same skill at level 1+) join; Enter rolls everyone."""

    DEFAULT_CSS = MODAL_CSS.format(name="GroupScreen")
    BINDINGS = [
        Binding("enter", "go", "Бросить", id="group-go"),
        Binding("escape", "cancel", "Отмена", id="group-cancel"),
    ]

    def __init__(self, main: Any, candidates: Sequence[Any]) -> None:
        super().__init__()
        self.main = main
        self.candidates = list(candidates)

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
                    f"{helper.name} ({helper.skill_name}-{helper.skill})",
                    [("помогает", True), ("не помогает", False)],
                    id=f"group-{i}",
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


# --- the builder -------------------------------------------------------------------------------


class StaratelyBuilder(CharacterPicker, Horizontal):
    """The 2d6 check builder: rows on the left, the Effect distribution on the right."""

    FIRST_ROW = "#st-characteristic"

    DEFAULT_CSS = """
    StaratelyBuilder #st-form { width: 1fr; height: 1fr; }
    StaratelyBuilder #st-effect-box {
        width: 24; height: 1fr; padding: 0 0 0 1; border-left: solid $primary;
    }
    StaratelyBuilder #st-notes { height: auto; color: $text-muted; }
    """

    BINDINGS = [
        Binding("enter", "roll", "Бросить", id="starately-roll", tooltip="Бросить проверку 2d6"),
        Binding(
            "r",
            "risk",
            "Риск",
            id="starately-risk",
            tooltip="После провала: бросить снова за цену, которую назначает ведущий",
        ),
        Binding(
            "h",
            "chain",
            "Помощник",
            id="starately-chain",
            tooltip="Цепочка: помощник бросает на шаг легче, его Эффект идёт в основной бросок",
        ),
        Binding(
            "g",
            "group",
            "Группа",
            id="starately-group",
            tooltip="Групповая проверка: +1 за каждый успех помощника с тем же навыком",
        ),
    ]

    _characters: dict[str, Character]
    _last: Any = None  # the main result Risk would retry
    _risk_closed = False

    def compose(self) -> ComposeResult:
        with Vertical(id="st-form"):
            yield Row("Персонаж", id="check-character")
            yield Row("Характеристика", id="st-characteristic")
            yield Row("Навык", id="st-skill")
            yield Row(
                "Сложность",
                [(f"{d.name} {d.value}+", d.value) for d in starately.difficulties()],
                id="st-difficulty",
            )
            yield Row("Кубы", DICE_OPTIONS, id="st-dice")
            with Horizontal(id="check-mods-row"):
                yield Label("Модификаторы   ")
                yield ModsInput(placeholder="+1 прицел, -2 темнота", id="check-mods", compact=True)
            yield Static(id="check-formula")
            yield Rule(line_style="heavy")
            yield StyledOddsBars(OUTCOME_STYLE, id="check-odds")
            yield Static(id="st-notes")
            yield Rule(line_style="heavy")
            yield Static(
                "Enter — бросить · h — помощник · g — группа\nпосле провала r — Риск",
                id="check-result",
            )
        with Vertical(id="st-effect-box"):
            yield DistributionBars(id="st-effect")

    def on_mount(self) -> None:
        self._characters = {}
        self.query_one("#st-difficulty", Row).select(starately.default_difficulty())
        self.query_one("#st-dice", Row).select(0)

    # -- the contract ---------------------------------------------------------------------------

    # -- building -------------------------------------------------------------------------------

    def _refresh_traits(self) -> None:
        c = self.character
        characteristic = self.query_one("#st-characteristic", Row)
        skill = self.query_one("#st-skill", Row)
        characteristic.set_options(characteristic_options(c) if c else [], characteristic.value)
        skill.set_options(skill_options(c) if c else [], skill.value)
        self._recompute()

    @on(Stepper.Changed, "#check-character")
    def _character_changed(self) -> None:
        self._refresh_traits()

    @on(Stepper.Changed, "#st-characteristic")
    @on(Stepper.Changed, "#st-skill")
    @on(Stepper.Changed, "#st-difficulty")
    @on(Stepper.Changed, "#st-dice")
    @on(Input.Changed, "#check-mods")
    def _inputs_changed(self) -> None:
        self._recompute()

    def current_check(self, modifiers: Sequence[Any] = ()) -> Any:
        """Build the check from the rows (raises RulesError for bad input)."""
        c = self.character
        if c is None:
            raise RulesError("Выберите персонажа: в партии пока никого нет.")
        net = self.query_one("#st-dice", Row).value or 0
        typed = parse_modifiers(self.query_one("#check-mods", Input).value)
        side = side_for(
            c,
            self.query_one("#st-characteristic", Row).value,
            self.query_one("#st-skill", Row).value or UNSKILLED,
            boons=max(net, 0),
            banes=max(-net, 0),
            modifiers=tuple(starately.Modifier(m.value, m.reason) for m in typed)
            + tuple(modifiers),
        )
        return starately.Check(side, self.query_one("#st-difficulty", Row).value)

    def _recompute(self) -> None:
        check = self._built_or_shown(self.current_check)
        if check is None:
            return
        formula = self.query_one("#check-formula", Static)
        side = check.side
        show_markup(
            formula,
            f"{DICE_LABELS[side.net_dice]} {signed(side.bonus)} против {check.difficulty}+ · "
            f"DM {signed(side.dm)}, навык {signed(side.skill_modifier)}"
            + (f", мод. {signed(side.modifier_total)}" if side.modifiers else ""),
        )
        odds = starately.check_odds(check)
        self.query_one("#check-odds", StyledOddsBars).show(
            odds.outcomes, starately.OUTCOME_NAMES, starately.OUTCOMES
        )
        show_markup(
            self.query_one("#st-notes", Static),
            f"{natural_note(check, odds)}\nС Риском после провала: успех {percent(odds.with_risk)}",
        )
        self.query_one("#st-effect", DistributionBars).show(
            "[b]Эффект[/b]\n[dim]итог − сложность[/]", effect_rows(check, odds)
        )
        self.refresh_bindings()  # «g» depends on the skill chosen

    # -- keys -----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("risk", "chain", "group") and isinstance(self.app.focused, Input):
            return False  # the modifier field takes letters as text
        if action == "risk":
            last = self._last
            return last is not None and not last.success and not last.risk and not self._risk_closed
        if action == "chain":
            return bool(self._characters)
        if action == "group":
            return bool(self._group_candidates())
        return True

    def _group_candidates(self) -> list[Any]:
        try:
            check = self.current_check()
        except RulesError:
            return []
        if check.side.skill is None:
            return []
        candidates = []
        for c in self._characters.values():
            if c.name == check.side.name or c.skill(check.side.skill_name) is None:
                continue
            try:
                helper = side_for(c, check.side.characteristic, check.side.skill_name)
            except RulesError:
                continue
            if starately.helper_refusal(helper, check.side) is None:
                candidates.append(helper)
        return candidates

    def _show(self, lines: list[str], actor: str | None, text: str, data: dict[str, Any]) -> None:
        show_markup(self.query_one("#check-result", Static), "\n".join(lines))
        self.post_message(CheckRolled(actor, text, {"system": "starately", **data}))
        self.refresh_bindings()

    def _remember(self, main: Any) -> list[str]:
        """Keep ``main`` as the result Risk would retry; return the hint to show."""
        self._last, self._risk_closed = main, False
        if main.success or main.risk:
            return []
        return ["[dim]r — Риск: бросить снова за цену от ведущего[/]"]

    def action_roll(self) -> None:
        """Roll the built check and show every die, the total, Effect and outcome."""
        try:
            check = self.current_check()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        result = starately.roll(check, self.app.rng)  # type: ignore[attr-defined]
        lines = result_lines(result) + self._remember(result)
        self._show(lines, check.side.name or None, summary(result), result.to_dict())

    def action_risk(self) -> None:
        """Ask the GM for Risk's price, then roll the failed check again."""
        first = self._last
        if first is None:
            self.app.notify("Сначала бросьте проверку.", severity="error")
            return
        refusal = starately.risk_refusal(first, "-", forbidden=self._risk_closed)
        if refusal is not None:
            self.app.notify(refusal, severity="error")
            return
        self.app.push_screen(RiskScreen(first), self._risk_answered)

    def _risk_answered(self, answer: tuple[str, bool] | None) -> None:
        if answer is None:
            return
        price, forbidden = answer
        first = self._last
        try:
            risky = starately.roll_risk(first, price, self.app.rng, forbidden=forbidden)  # type: ignore[attr-defined]
        except RulesError as err:
            self._risk_closed = True
            self.refresh_bindings()
            self.app.notify(str(err), severity="warning" if forbidden else "error")
            return
        self._last = risky.retry
        lines = [
            f"[b]Риск[/b] — цена: {risky.price}",
            f"[dim]Первый бросок: {d6_faces(first.dice)} → {first.total}, провал[/]",
            *result_lines(risky.retry, "Повторно"),
        ]
        text = f"Риск (цена: {risky.price}): {summary(first)}; повторно: {summary(risky.retry)}"
        self._show(lines, first.check.side.name or None, text, risky.to_dict())

    def action_chain(self) -> None:
        """Choose a helper for a task chain, then roll the helper and the main check."""
        try:
            check = self.current_check()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        others = [c for c in self._characters.values() if c.name != check.side.name]
        default = others[0].id if others else None
        screen = ChainScreen(list(self._characters.values()), check, default)
        self.app.push_screen(screen, self._chain_answered)

    def _chain_answered(self, helper: Any) -> None:
        if helper is None:
            return
        try:
            chain = starately.TaskChain(helper, self.current_check())
            result = starately.roll_chain(chain, self.app.rng)  # type: ignore[attr-defined]
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        lines = [
            *result_lines(result.helper, f"Помощник {helper.name}"),
            f"→ Эффект помощника {signed(result.carried)} идёт в основной бросок",
            *result_lines(result.main),
        ]
        text = f"Цепочка: помощник {helper.name}: {summary(result.helper)}; " + summary(result.main)
        lines += self._remember(result.main)
        self._show(lines, chain.main.side.name or None, text, result.to_dict())

    def action_group(self) -> None:
        """Choose helpers with the same skill, then roll the group check."""
        try:
            check = self.current_check()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        candidates = self._group_candidates()
        if not candidates:
            self.app.notify(
                "Помочь некому: нужен тот же навык хотя бы 1-го уровня у другого персонажа.",
                severity="error",
            )
            return
        self.app.push_screen(GroupScreen(check, candidates), self._group_answered)

    def _group_answered(self, helpers: tuple[Any, ...] | None) -> None:
        if helpers is None:
            return
        try:
            group = starately.GroupCheck(self.current_check(), helpers)
            result = starately.roll_group(group, self.app.rng)  # type: ignore[attr-defined]
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        helped = ", ".join(
            f"{h.check.side.name} {d6_faces(h.dice)} → {h.total} "
            f"[{OUTCOME_STYLE[h.outcome]}]{starately.OUTCOME_NAMES[h.outcome]}[/]"
            for h in result.helpers
        )
        lines = [
            f"[b]Помощники[/b]: {helped or 'никто'}; помощь {signed(result.bonus)}",
            *result_lines(result.main),
        ]
        text = (
            "Группа: "
            + "; ".join(f"{h.check.side.name}: {summary(h)}" for h in result.helpers)
            + f" → {signed(result.bonus)}; {summary(result.main)}"
        )
        lines += self._remember(result.main)
        self._show(lines, group.main.side.name or None, text, result.to_dict())
