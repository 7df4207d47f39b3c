"""The IDE4™ builder's form: one row per step of the procedure, shown by the level of detail.

Rows a level does not walk are hidden but keep their values, so switching back restores them;
a hidden row does not count in the check (what the GM sees is what is rolled). A text row
hidden at the first build gets its label and field when it is first shown (:class:`TextRow`).
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Label

from rules import ide4
from rules.errors import RulesError
from rules.modifiers import parse_modifiers
from tui.bridge.effects import effect_steps
from tui.store import Character, Skill
from tui.widgets.builders import ide4_text as txt
from tui.widgets.builders.base import mods_hint
from tui.widgets.common.lazy import BuiltWhenShown
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup

#: Rows each level shows; the expanded level shows all of them.
LEVEL_ROWS = {
    "quick": {"character", "level", "attribute", "base", "mods"},
    "standard": {"character", "level", "action", "attribute", "skill", "distance", "base", "mods"},
}
EXPANDED_ONLY = ("intent", "energy", "die", "help", "technique", "circumstances", "risk")
STEPPER_ROWS = ("energy", "die", "help")
IMPOSSIBLE = 8


class FieldInput(ReadyInput):
    """A one-line text field that lets ↑/↓ move between the rows like a Stepper."""

    BINDINGS = [
        Binding("enter", "submit", "Бросить d100", id="ide4-field-submit"),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
    ]


class Ide4OddsBars(OddsBars):
    """OddsBars coloured by the IDE4 outcome styles, or a sentence when there is no roll."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(txt.IDE4_STYLE, id=id)

    def show_message(self, text: str) -> None:
        """Replace the bars with a sentence (no roll at [0] or [00], a rule refusing inputs)."""
        self._data = None
        show_markup(self, text)


class TextRow(BuiltWhenShown, Horizontal):
    """A labelled text field ``#ide4-<name>`` in the row ``#ide4-row-<name>``.

    A ``lazy`` row gets its label and field only when :meth:`show` first shows it: most text
    rows are hidden at the standard level, and their widgets were most of the form's first
    build. Never shown, its text is empty; once built it stays, hidden or not, so its text is
    kept as every row's is.
    """

    def __init__(self, label: str, name: str, placeholder: str, *, lazy: bool = True) -> None:
        super().__init__(classes="ide4-field", id=f"ide4-row-{name}")
        self._parts = (label, name, placeholder)
        self.built = not lazy

    def children_to_build(self) -> list[Label | FieldInput]:
        label, name, placeholder = self._parts
        return [
            Label(f"{label:<13} "),
            FieldInput(id=f"ide4-{name}", placeholder=placeholder, compact=True),
        ]

    def show(self, visible: bool) -> None:
        """Show or hide the row, building its widgets the first time it is shown."""
        if visible:
            self.build()
        self.display = visible

    @property
    def text(self) -> str:
        """Return the field's stripped text ("" while the row was never shown)."""
        return self.query_one(Input).value.strip() if self.built else ""

    def clear(self) -> None:
        """Empty the field."""
        if self.built:
            self.query_one(Input).value = ""


def _field(label: str, name: str, placeholder: str, *, lazy: bool = True) -> TextRow:
    return TextRow(label, name, placeholder, lazy=lazy)


class Ide4Form(VerticalScroll, can_focus=False):
    """Steppers and text fields in the seed's order; ↑/↓ move, ←/→ change, the view scrolls."""

    STEPPER_FORM = True  # its steppers' Changed messages come here directly

    DEFAULT_CSS = """
    Ide4Form .ide4-field { height: 1; }
    Ide4Form .ide4-field Label { width: auto; }
    Ide4Form .ide4-field Input { width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._characters: dict[str, Character] = {}

    def compose(self) -> ComposeResult:
        yield Stepper("Персонаж", id="ide4-character")
        yield Stepper("Уровень", txt.level_options(), id="ide4-level")
        yield _field("Намерение", "intent", "чего хочет персонаж")
        yield Stepper("Действие", txt.action_options(), id="ide4-action")
        yield Stepper("Атрибут", id="ide4-attribute")
        yield Stepper("Навык", id="ide4-skill")
        yield Stepper("Дистанция", txt.distance_options(), id="ide4-distance")
        yield Stepper("Сложность", txt.BASE_OPTIONS, id="ide4-base", wrap=False)
        yield _field(
            "Модификаторы", "mods", mods_hint("+1 темнота, −1 инструменты", empty=False), lazy=False
        )
        yield Stepper("Скрытый риск", txt.HIDDEN_OPTIONS, id="ide4-hidden")
        yield _field("Почему [00]", "reason", "обязательно: почему этим способом нельзя")
        yield _field("Другой путь", "alternative", "если он очевиден из сцены")
        yield _field("Особ. правило", "special", "правило, которое открывает [00]")
        yield Stepper("Новая сложн.", txt.OPEN_OPTIONS, id="ide4-open", wrap=False)
        yield Stepper("Куб энергии", id="ide4-die")
        yield Stepper("Энергия до", id="ide4-energy")
        yield Stepper("Помощь", txt.HELP_OPTIONS, id="ide4-help")
        yield _field("Часть риска", "helpnote", "какую часть риска берёт союзник")
        yield _field("Техника", "technique", "именованная техника (бонус 20)")
        yield _field("Обстановка", "circumstances", "очевидные обстоятельства сцены")
        yield _field("Риск", "risk", "что может случиться при неудаче")

    def on_mount(self) -> None:
        # Quietly: the builder draws the odds once it is mounted and given the party; three
        # Changed messages here drew them three more times in the tab's first build.
        with self.prevent(Stepper.Changed):
            self.query_one("#ide4-base", Stepper).select(3)
            self.query_one("#ide4-level", Stepper).select("standard")
            self.query_one("#ide4-open", Stepper).select(5)

    # -- values --------------------------------------------------------------------------------

    def value(self, name: str) -> Any:
        """Return the value of the stepper ``#ide4-<name>``."""
        return self.query_one(f"#ide4-{name}", Stepper).value

    def text(self, name: str) -> str:
        """Return the stripped text of the field ``#ide4-<name>``."""
        return self.query_one(f"#ide4-row-{name}", TextRow).text

    @property
    def level(self) -> str:
        """Return the level of detail chosen."""
        return self.value("level") or "standard"

    @property
    def characters(self) -> dict[str, Character]:
        """Return the party by id."""
        return self._characters

    @property
    def character(self) -> Character | None:
        """Return the chosen character."""
        return self._characters.get(self.value("character"))

    def shown(self, row: str) -> bool:
        """Whether the current level walks the step of ``row``."""
        return row in LEVEL_ROWS.get(self.level, {row})

    def skill(self) -> Skill | None:
        """Return the chosen skill when the level uses one."""
        c = self.character
        name = self.value("skill") if self.shown("skill") else ""
        return c.skill(name) if c and name else None

    def distance_wanted(self) -> bool:
        """Whether the chosen skill or action is a combat one (it lists distances)."""
        if not self.shown("distance"):
            return False
        skill, act = self.skill(), self.value("action")
        return bool((skill and skill.distances) or (act and ide4.action(act).distances))

    def current_input(self, reasons: tuple[str, ...], player_demand: bool) -> ide4.CheckInput:
        """Build the check's inputs from the rows the level shows.

        Raises:
            RulesError: no character, or a modifier list that does not parse.
        """
        c = self.character
        if c is None:
            raise RulesError("Выберите персонажа: в партии пока никого нет.")
        attribute = self.value("attribute") or ""
        skill = self.skill()
        expanded = self.level == "expanded"
        mods = parse_modifiers(self.query_one("#ide4-mods", Input).value)
        base = self.value("base")
        help_kind = (self.value("help") or "") if expanded else ""
        opening = help_kind == "possible" or bool(self.text("special"))
        return ide4.CheckInput(
            intent=self.text("intent"),
            actor=c.name,
            action=(self.value("action") or "") if self.shown("action") else "",
            attribute=attribute,
            attribute_level=c.qualities.get(attribute, 3),
            skill=skill.name if skill else "",
            mastery=skill.value if skill else 0,
            skill_distances=tuple(skill.distances) if skill else (),
            distance=(self.value("distance") or "") if self.distance_wanted() else "",
            base=base,
            modifiers=tuple(ide4.Modifier(m.value, m.reason) for m in mods) + effect_steps(self, c),
            pinned_seven=base == 7,
            hidden_risk=bool(self.value("hidden")),
            impossible_reason=self.text("reason"),
            alternative=self.text("alternative"),
            energy_pool=int(c.extra.get("energy", 100)),
            energy_dice=(self.value("energy") or 0) if expanded else 0,
            energy_die=(self.value("die") or 0) if expanded else 0,
            technique=self.text("technique") if expanded else "",
            help=help_kind,
            help_difficulty=self.value("open") if opening else None,
            help_note=self.text("helpnote") if help_kind == "risk" else "",
            special_rule=self.text("special"),
            level=self.level,
            always_expanded=bool(c.extra.get("always_expanded", False)),
            daily_triumph_used=bool(c.extra.get("daily_triumph_used", False)),
            roll_reasons=reasons,
            player_demand=player_demand,
            circumstances=self.text("circumstances"),
            risk=self.text("risk"),
        )

    # -- rows ----------------------------------------------------------------------------------

    def set_characters(self, characters: list[Character]) -> None:
        """Offer ``characters``; keep every current choice that still exists."""
        self._characters = {c.id: c for c in characters}
        stepper = self.query_one("#ide4-character", Stepper)
        kind = {"pc": "игрок", "npc": "НИП"}
        options = [(f"{c.name} ({kind.get(c.kind, c.kind)})", c.id) for c in characters]
        stepper.set_options(options, stepper.value)
        self._refresh_character_rows()

    def show_rows(self, difficulty: ide4.Difficulty | None) -> None:
        """Show the level's rows, plus [0]'s hidden risk and [00]'s reason when they apply."""
        raw = difficulty.raw if difficulty else 3
        impossible = difficulty is not None and difficulty.final >= IMPOSSIBLE
        opened = difficulty is not None and difficulty.made_possible
        exception = self.value("help") == "possible" or bool(self.text("special"))
        shown = {
            "#ide4-action": self.shown("action"),
            "#ide4-skill": self.shown("skill"),
            "#ide4-distance": self.distance_wanted(),
            "#ide4-hidden": raw <= 0 and not (difficulty and difficulty.pinned),
            "#ide4-row-reason": impossible,
            "#ide4-row-alternative": impossible,
            "#ide4-row-special": impossible or opened or bool(self.text("special")),
            "#ide4-open": opened or (impossible and exception),
        }
        for row in EXPANDED_ONLY:
            selector = f"#ide4-{row}" if row in STEPPER_ROWS else f"#ide4-row-{row}"
            shown[selector] = self.shown(row)
        shown["#ide4-row-helpnote"] = self.shown("help") and self.value("help") == "risk"
        for selector, visible in shown.items():
            row = self.query_one(selector)
            if isinstance(row, TextRow):
                row.show(visible)
            else:
                row.display = visible

    def reset_situation(self) -> None:
        """Clear what belongs to one check (modifiers, words, energy); keep who and how."""
        for name in (
            "mods",
            "intent",
            "reason",
            "alternative",
            "technique",
            "circumstances",
            "special",
            "helpnote",
        ):
            self.query_one(f"#ide4-row-{name}", TextRow).clear()
        self.query_one("#ide4-row-risk", TextRow).clear()
        act = self.value("action")
        base = ide4.action(act).base if act else 3
        for name, value in (
            ("energy", 0),
            ("help", ""),
            ("hidden", False),
            ("base", base),
            ("open", 5),
        ):
            self.query_one(f"#ide4-{name}", Stepper).select(value)

    def _refresh_character_rows(self) -> None:
        """Rebuild the rows that depend on the character and the action."""
        c = self.character
        attribute = self.query_one("#ide4-attribute", Stepper)
        skill = self.query_one("#ide4-skill", Stepper)
        if c is None:
            attribute.set_options([])
            skill.set_options([])
        else:
            act = self.value("action")
            allowed = ide4.action(act).attributes if act else ()
            attribute.set_options(txt.attribute_options(c, allowed), attribute.value)
            skill.set_options(txt.skill_options(c), skill.value)
        self._refresh_energy()

    def _refresh_energy(self) -> None:
        c = self.character
        energy = self.query_one("#ide4-energy", Stepper)
        die = self.query_one("#ide4-die", Stepper)
        if c is None:
            energy.set_options([])
            die.set_options([])
            return
        level = c.qualities.get(self.value("attribute") or "", 3)
        try:
            nominal = ide4.energy_rules().nominal(level)
        except RulesError:
            energy.set_options([("нет: уровень атрибута вне таблицы номиналов", 0)])
            die.set_options([])
            return
        # A die the GM chose below the nominal stays; the nominal follows the attribute.
        was_nominal = not die._options or die.value == die._options[0][1]
        die.set_options(txt.die_options(nominal), nominal if was_nominal else die.value)
        pool = int(c.extra.get("energy", 100))
        energy.set_options(txt.energy_options(pool, die.value or nominal), energy.value)

    @on(Stepper.Changed, "#ide4-character")
    def _character_chosen(self) -> None:
        c = self.character
        if c is not None and c.extra.get("always_expanded"):
            self.query_one("#ide4-level", Stepper).select("expanded")
        self.query_one("#ide4-skill", Stepper).set_options([])  # a new sheet: «без навыка»
        self._refresh_character_rows()

    @on(Stepper.Changed, "#ide4-action")
    def _action_chosen(self) -> None:
        act = self.value("action")
        if act:
            self.query_one("#ide4-base", Stepper).select(ide4.action(act).base)
        self._refresh_character_rows()
        c = self.character
        if act and c is not None and any(s.name == act for s in c.skills):
            self.query_one("#ide4-skill", Stepper).select(act)  # the action Взлом: skill Взлом
        self._prefer_attribute_and_distance()

    @on(Stepper.Changed, "#ide4-skill")
    def _skill_chosen(self) -> None:
        self._prefer_attribute_and_distance()
        self._refresh_energy()

    @on(Stepper.Changed, "#ide4-attribute")
    @on(Stepper.Changed, "#ide4-die")
    def _attribute_chosen(self) -> None:
        self._refresh_energy()

    def _prefer_attribute_and_distance(self) -> None:
        """Preselect the skill's main attribute and the first distance skill and action share."""
        skill, act = self.skill(), self.value("action")
        if skill and skill.parent:
            self.query_one("#ide4-attribute", Stepper).select(skill.parent)
        lists = [tuple(skill.distances)] if skill and skill.distances else []
        if act and ide4.action(act).distances:
            lists.append(ide4.action(act).distances)
        if lists:
            common = [d for d in lists[0] if all(d in other for other in lists)] or [lists[0][0]]
            self.query_one("#ide4-distance", Stepper).select(common[0])
