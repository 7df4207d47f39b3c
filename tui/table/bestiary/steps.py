"""The bestiary's steps: ``step(shelf, world, …) -> Outcome``, each one undo step.

A :class:`Shelf` is what the steps read besides the world: the campaign's bestiary (the
starter set and its own), its ``bestiary`` and ``encounters`` documents, the fight being set
up (Древо's ``encounter`` document or the round tracker's) and the variation table. A step
returns the new NPCs (``sheets``), the characters it takes out (``removed``), the documents
it sets (``docs``) and its Журнал lines — or the reason it is refused; the session
(:mod:`tui.table.bestiary.session`) writes the outcome as one undo step. The app's keys, the
command line and the tests make these same steps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.encounter import Combatant
from rules.errors import RulesError
from rules.rounds import Entrant
from rules.systems import exchanges
from tui import registry
from tui.store import Character
from tui.store.bestiary import (
    BESTIARY_DOC,
    COUNT_RANGE,
    DEFAULT_SIDE,
    ENCOUNTERS_DOC,
    NAME_LIMIT,
    Bestiary,
    Prepared,
    Template,
    template_of,
    with_encounter,
    with_template,
    without,
)
from tui.table.bestiary import spawn
from tui.table.core import Line, Outcome, World, refuse

#: The fight documents: Древо's fight, the round tracker of the other systems.
DREVO_FIGHT, ROUNDS_FIGHT = "encounter", "rounds"


@dataclass(frozen=True)
class Shelf:
    """What a bestiary step reads besides the world.

    Attributes:
        bestiary: the templates and encounters the campaign may add from.
        docs: the campaign's documents as read: ``bestiary``, ``encounters`` and the fight's.
        variation: the variation table (``data/bestiary/variation.toml`` or the campaign's).
    """

    bestiary: Bestiary = field(default_factory=Bestiary)
    docs: Mapping[str, dict[str, Any] | None] = field(default_factory=dict)
    variation: Mapping[str, Any] = field(default_factory=dict)


def fight_doc(system: str) -> str:
    """The name of the fight document of ``system``."""
    return DREVO_FIGHT if exchanges(system) else ROUNDS_FIGHT


# -- adding NPCs ---------------------------------------------------------------------------------


def add_from_template(
    shelf: Shelf,
    world: World,
    template: str,
    count: int = 1,
    *,
    side: str | None = None,
    variation: str | None = None,
    hidden: bool = False,
    name: str = "",
) -> Outcome[Shelf]:
    """Add ``count`` NPCs made from ``template`` to the party (and, with ``side``, to the
    fight being set up on that side): numbered names (of ``name``, or the template's), the
    variation asked for or the campaign's (``variation`` None)."""
    t = shelf.bestiary.template(template)
    if t is None:
        return refuse(shelf, _no_template(template, shelf.bestiary))
    low, high = COUNT_RANGE
    if not low <= count <= high:
        return refuse(shelf, f"Сколько добавить: от {low} до {high}, а не {count}.")
    mode = variation or spawn.mode_of(shelf.variation)
    if mode not in spawn.MODES:
        return refuse(shelf, f"Разброс «{mode}» неизвестен: бывает none или spread.")
    base = " ".join(name.split())
    if len(base) > NAME_LIMIT:
        return refuse(shelf, f"Имя не длиннее {NAME_LIMIT} знаков.")
    npcs = _made(world, shelf, [(t, count)], mode, encounter="", hidden=hidden, base=base)
    docs: dict[str, dict[str, Any] | None] = {}
    if side is not None:
        joined = _joined(shelf, world, [(c, side) for c in npcs])
        if isinstance(joined, str):
            return refuse(shelf, joined)
        docs = joined
    names = _span([c.name for c in npcs])
    where = f" — {side}" if side else ""
    return Outcome(shelf, f"Из бестиария: {names}{where}", sheets=tuple(npcs), docs=docs)


def load_encounter(shelf: Shelf, world: World, name: str) -> Outcome[Shelf]:
    """Load a prepared encounter into the fight being set up: its NPCs join the party and
    their sides (hidden from the players if it says so), one step."""
    e = shelf.bestiary.encounter(name)
    if e is None:
        return refuse(shelf, _no_encounter(name, shelf.bestiary))
    missing = [g.template for g in e.groups if shelf.bestiary.template(g.template) is None]
    if missing:
        return refuse(
            shelf,
            f"В сцене «{e.name}» шаблон «{missing[0]}», которого нет в бестиарии: "
            "добавьте его или исправьте сцену.",
        )
    groups = [(shelf.bestiary.template(g.template), g) for g in e.groups]
    mode = spawn.mode_of(shelf.variation)
    npcs: list[Character] = []
    sides: list[tuple[Character, str]] = []
    for t, g in groups:
        assert t is not None  # checked above
        made = _made(
            world, shelf, [(t, g.count)], mode, encounter=e.name, hidden=e.hidden, taken=npcs
        )
        npcs += made
        sides += [(c, g.side) for c in made]
    joined = _joined(shelf, world, sides)
    if isinstance(joined, str):
        return refuse(shelf, joined)
    text = f"Сцена «{e.name}»: " + "; ".join(
        f"{_span([c.name for c, s in sides if s == side])} — {side}"
        for side in dict.fromkeys(s for _c, s in sides)
    )
    # The GM's line, never the players': a prepared encounter's name is the GM's preparation
    # («Засада у брода» would tell them who waits at the ford, hidden or not); the players
    # see the newcomers in the fight, as the party tab shows NPCs.
    line = Line(None, text, {"encounter": e.name, "hidden": True}, kind="note")
    return Outcome(shelf, f"Сцена «{e.name}» в бою", sheets=tuple(npcs), docs=joined, log=(line,))


def brought(world: World, name: str) -> list[Character]:
    """The characters of the party that the encounter ``name`` brought."""
    fold = name.casefold()
    return [c for c in world.characters.values() if c.from_encounter.casefold() == fold]


def remove_brought(shelf: Shelf, world: World, name: str) -> Outcome[Shelf]:
    """Take out of the party the NPCs that the encounter ``name`` brought (after the fight)."""
    gone = brought(world, name)
    if not gone:
        return refuse(shelf, f"В партии нет НИП сцены «{name}».")
    ids = {c.id for c in gone}
    docs: dict[str, dict[str, Any] | None] = {}
    doc_name = fight_doc(world.system)
    stored = shelf.docs.get(doc_name)
    if stored:
        try:
            docs = _fight_without(world.system, stored, ids)
        except RulesError:
            return refuse(shelf, "Бой ещё идёт: уберите НИП сцены после боя (x — закончить бой).")
    return Outcome(
        shelf,
        f"Убраны НИП сцены «{name}» ({len(gone)})",
        removed=tuple(sorted(ids)),
        docs=docs,
    )


# -- the bestiary itself ---------------------------------------------------------------------


def save_character(
    shelf: Shelf, world: World, character_id: str, tags: Sequence[str] = ()
) -> Outcome[Shelf]:
    """Save a character of the party as a template of the campaign's bestiary (one of the
    same name is replaced: the GM saved it again)."""
    c = world.characters.get(character_id)
    if c is None:
        return refuse(shelf, "Такого персонажа нет в партии.")
    base = c.from_template
    known = shelf.bestiary.template(c.name)
    tid = known.id if known is not None and not known.default else world.new_id()
    try:
        t = template_of(c, tid, tuple(tags) or (_tags_of(shelf, base)))
    except ValueError as err:
        return refuse(shelf, f"Шаблон не сохранён: {err}")
    return put_template(shelf, world, t)


def put_template(shelf: Shelf, world: World, t: Template) -> Outcome[Shelf]:
    """Set a template of the campaign's bestiary (a new one, or one edited)."""
    doc = with_template(shelf.docs.get(BESTIARY_DOC), replace(t, default=False))
    known = shelf.bestiary.template(t.name)
    verb = "заменён" if known is not None else "добавлен"
    return Outcome(shelf, f"Бестиарий: {verb} шаблон «{t.name}»", docs={BESTIARY_DOC: doc})


def remove_template(shelf: Shelf, world: World, name: str) -> Outcome[Shelf]:
    """Remove a template of the campaign's own (a starter one cannot go: only be replaced)."""
    t = shelf.bestiary.template(name)
    if t is None:
        return refuse(shelf, _no_template(name, shelf.bestiary))
    if t.default:
        return refuse(
            shelf,
            f"«{t.name}» — из стартового бестиария kubik: его не удалить, только заменить "
            "своим шаблоном с тем же именем.",
        )
    users = [
        e.name
        for e in shelf.bestiary.encounters
        if any(g.template.casefold() == t.name.casefold() for g in e.groups)
    ]
    doc = without(shelf.docs.get(BESTIARY_DOC), "templates", t.id)
    notices = (f"Шаблон «{t.name}» упоминают сцены: {', '.join(users)}.",) if users else ()
    return Outcome(
        shelf, f"Бестиарий: удалён шаблон «{t.name}»", docs={BESTIARY_DOC: doc}, notices=notices
    )


def put_encounter(shelf: Shelf, world: World, e: Prepared) -> Outcome[Shelf]:
    """Set a prepared encounter of the campaign (a new one, or one edited); its templates
    must be in the bestiary."""
    for g in e.groups:
        if shelf.bestiary.template(g.template) is None:
            return refuse(shelf, _no_template(g.template, shelf.bestiary))
    doc = with_encounter(shelf.docs.get(ENCOUNTERS_DOC), replace(e, default=False))
    verb = "заменена" if shelf.bestiary.encounter(e.name) is not None else "добавлена"
    return Outcome(shelf, f"Сцены: {verb} «{e.name}»", docs={ENCOUNTERS_DOC: doc})


def put_file(
    shelf: Shelf, world: World, templates: Sequence[Template], encounters: Sequence[Prepared]
) -> Outcome[Shelf]:
    """Set the templates and encounters of a bestiary file, all as one step (an encounter
    may name a template of the same file)."""
    if not templates and not encounters:
        return refuse(shelf, "В файле нет ни шаблонов, ни сцен.")
    docs: dict[str, dict[str, Any] | None] = {}
    bestiary_doc = shelf.docs.get(BESTIARY_DOC)
    for t in templates:
        bestiary_doc = with_template(bestiary_doc, replace(t, id=world.new_id(), default=False))
    if templates:
        docs[BESTIARY_DOC] = bestiary_doc
    known = {t.name.casefold() for t in (*shelf.bestiary.templates, *templates)}
    encounters_doc = shelf.docs.get(ENCOUNTERS_DOC)
    for e in encounters:
        for g in e.groups:
            if g.template.casefold() not in known:
                return refuse(
                    shelf,
                    f"Сцена «{e.name}»: шаблона «{g.template}» нет ни в бестиарии, ни в файле.",
                )
        encounters_doc = with_encounter(
            encounters_doc, replace(e, id=world.new_id(), default=False)
        )
    if encounters:
        docs[ENCOUNTERS_DOC] = encounters_doc
    what = []
    if templates:
        what.append(f"шаблонов {len(templates)}")
    if encounters:
        what.append(f"сцен {len(encounters)}")
    return Outcome(shelf, f"Бестиарий из файла: {', '.join(what)}", docs=docs)


def remove_encounter(shelf: Shelf, world: World, name: str) -> Outcome[Shelf]:
    """Remove a prepared encounter of the campaign's own."""
    e = shelf.bestiary.encounter(name)
    if e is None:
        return refuse(shelf, _no_encounter(name, shelf.bestiary))
    if e.default:
        return refuse(
            shelf,
            f"«{e.name}» — из стартового бестиария kubik: её не удалить, только заменить "
            "своей сценой с тем же именем.",
        )
    doc = without(shelf.docs.get(ENCOUNTERS_DOC), "encounters", e.id)
    return Outcome(shelf, f"Сцены: удалена «{e.name}»", docs={ENCOUNTERS_DOC: doc})


# -- helpers -------------------------------------------------------------------------------------


def _made(
    world: World,
    shelf: Shelf,
    groups: Sequence[tuple[Template, int]],
    mode: str,
    *,
    encounter: str,
    hidden: bool,
    taken: Sequence[Character] = (),
    base: str = "",
) -> list[Character]:
    """The NPCs of ``groups``, numbered after ``base`` (or each template's name) past the
    names taken; each marked with its template's own name."""
    names = [c.name for c in world.characters.values()] + [c.name for c in taken]
    npcs: list[Character] = []
    for t, count in groups:
        for name in spawn.numbered(base or t.name, count, names + [c.name for c in npcs]):
            npc = spawn.made(t, name, world.new_id(), encounter=encounter, hidden=hidden)
            if mode == spawn.SPREAD:
                npc = spawn.varied(npc, world.system, shelf.variation, world.dice.rng)
            npcs.append(npc)
    return npcs


def _joined(
    shelf: Shelf, world: World, sides: Sequence[tuple[Character, str]]
) -> dict[str, dict[str, Any] | None] | str:
    """The fight document with ``sides`` joined, or why they cannot join."""
    name = fight_doc(world.system)
    stored = shelf.docs.get(name)
    sides = [(c, " ".join(side.split()) or DEFAULT_SIDE) for c, side in sides]
    try:
        if exchanges(world.system):  # its own fight's engine, found by its name
            engine = registry.get(world.system).fight_engine
            enc = registry.load(f"{engine}.steps:current")(stored, world)
            enc = enc.with_combatants([Combatant(c.id, c.name, side) for c, side in sides])
            return {name: enc.to_dict()}
        from tui.table.rounds.state import current as rounds_current

        t = rounds_current(stored, world)
        for c, side in sides:
            t = t.with_entrant(Entrant(c.id, c.name, side, False))
        return {name: t.to_dict()}
    except RulesError as err:
        return f"НИП не добавлены в бой: {err}"


def _fight_without(
    system: str, stored: dict[str, Any], ids: set[str]
) -> dict[str, dict[str, Any] | None]:
    """The stored fight without ``ids`` (a fight still running refuses: RulesError)."""
    if exchanges(system):
        from rules.encounter import Encounter

        enc = Encounter.from_dict(dict(stored))
        if enc.phase != "setup":
            raise RulesError("the fight runs")
        for cid in ids:
            enc = enc.without(cid)
        return {DREVO_FIGHT: enc.to_dict()}
    from rules.rounds import Tracker

    t = Tracker.from_dict(dict(stored))
    if t.started:
        raise RulesError("the fight runs")
    for cid in ids:
        t = t.without(cid)
    return {ROUNDS_FIGHT: t.to_dict()}


def _tags_of(shelf: Shelf, base: str) -> tuple[str, ...]:
    t = shelf.bestiary.template(base) if base else None
    return t.tags if t is not None else ()


def _span(names: Sequence[str]) -> str:
    """«Разбойник 1 … Разбойник 5» for a run, the names themselves for two or three."""
    if len(names) <= 3:
        return ", ".join(names)
    return f"{names[0]} … {names[-1]} ({len(names)})"


def _no_template(name: str, b: Bestiary) -> str:
    known = ", ".join(t.name for t in b.templates[:8])
    more = " …" if len(b.templates) > 8 else ""
    return f"Шаблона «{name}» нет в бестиарии. Есть: {known}{more}."


def _no_encounter(name: str, b: Bestiary) -> str:
    known = ", ".join(e.name for e in b.encounters[:8]) or "ни одной"
    return f"Сцены «{name}» нет. Подготовлены: {known}."
