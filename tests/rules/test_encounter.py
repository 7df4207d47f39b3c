"""Rounds, declarations in side order, and pairing declarations into exchanges."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.encounter import Combatant, Declaration, Encounter, pair_exchanges
from rules.errors import RulesError
from tests.hypo import examples


def everyone(_: str) -> bool:
    return True


def fight() -> Encounter:
    enc = Encounter()
    for cid, name, side in [
        ("a1", "Ярослав", "Отряд"),
        ("a2", "Милава", "Отряд"),
        ("b1", "Шкуро", "Противники"),
    ]:
        enc = enc.with_combatant(Combatant(cid, name, side))
    return enc.with_initiative(["Противники", "Отряд"])


def test_declarations_first_in_side_order_then_dice():
    """Сид: «первыми делают ходы персонажи стороны, обладающей инициативой … Затем — их
    противники. Только после этого происходят проверки (бросаются кубики)»."""
    enc = fight()
    assert [c.character_id for c in enc.declaring_order(everyone)] == ["b1", "a1", "a2"]
    with pytest.raises(RulesError, match="Сейчас объявляет Шкуро"):
        enc.declare(Declaration("a1", "melee", target="b1"), everyone)
    with pytest.raises(RulesError, match="Не все объявили"):
        enc.start_resolution(everyone)
    enc = enc.declare(Declaration("b1", "melee", target="a1"), everyone)
    enc = enc.declare(Declaration("a1", "melee", target="b1"), everyone)
    enc = enc.declare(Declaration("a2", "shoot", target="b1", distance="near"), everyone)
    assert enc.next_declarer(everyone) is None
    enc = enc.start_resolution(everyone)
    assert enc.phase == "resolve"


def test_next_round_reverses_the_order():
    """Сид: «В следующем раунде первой ходит сторона, проигравшая бросок на инициативу»."""
    enc = fight()
    for d in [
        Declaration("b1", "dodge"),
        Declaration("a1", "none"),
        Declaration("a2", "none"),
    ]:
        enc = enc.declare(d, everyone)
    enc = enc.start_resolution(everyone).next_round()
    assert enc.round == 2
    assert [c.character_id for c in enc.declaring_order(everyone)] == ["a1", "a2", "b1"]


def test_a_character_who_cannot_act_does_not_declare():
    """Сид: «Тяжелораненый персонаж не может ничего делать»."""
    enc = fight()
    order = enc.declaring_order(lambda cid: cid != "a1")
    assert [c.character_id for c in order] == ["b1", "a2"]


def test_multi_turn_action_carries_over():
    """Сид: «Некоторые действия … могут потребовать нескольких ходов»."""
    enc = fight()
    enc = enc.declare(Declaration("b1", "other", turns=2, note="заряжает арбалет"), everyone)
    enc = enc.declare(Declaration("a1", "none"), everyone)
    enc = enc.declare(Declaration("a2", "none"), everyone)
    enc = enc.start_resolution(everyone).next_round()
    assert [d.actor for d in enc.carried] == ["b1"]
    assert enc.carried[0].turns == 1
    assert "b1" not in [c.character_id for c in enc.declaring_order(everyone)]


def test_pairing_mutual_attack_defence_and_defenceless():
    """Сид: «Если же действия персонажей не противопоставлены друг другу (один из противников
    игнорирует атаку …), то назначаются односторонние проверки»."""
    decls = [
        Declaration("a", "melee", target="b"),
        Declaration("b", "melee", target="a"),
        Declaration("c", "shoot", target="d", distance="medium"),
        Declaration("d", "dodge"),
        Declaration("e", "throw", target="d", distance="near"),
        Declaration("f", "shoot", target="a", distance="far"),
    ]
    pairs = pair_exchanges(decls)
    assert [(p.attack.actor, p.answer.actor if p.answer else None) for p in pairs] == [
        ("a", "b"),
        ("c", "d"),
        ("e", "d"),
        ("f", None),
    ]


def test_each_exchange_is_resolved_once_per_round():
    enc = fight()
    for d in [
        Declaration("b1", "melee", target="a1"),
        Declaration("a1", "melee", target="b1"),
        Declaration("a2", "none"),
    ]:
        enc = enc.declare(d, everyone)
    enc = enc.start_resolution(everyone)
    (pairing,) = enc.pending()
    enc = enc.mark_resolved(pairing)
    assert enc.pending() == []
    with pytest.raises(RulesError):
        enc.mark_resolved(pairing)


def test_roundtrip_through_dict():
    enc = fight().declare(Declaration("b1", "melee", target="a1"), everyone)
    assert Encounter.from_dict(enc.to_dict()) == enc


@pytest.mark.parametrize(
    ("decl", "message"),
    [
        (lambda: Declaration("a", "melee"), "выберите цель"),
        (lambda: Declaration("a", "melee", target="a"), "самого себя"),
        (lambda: Declaration("a", "fly"), "Неизвестное"),
    ],
)
def test_impossible_declarations_are_refused(decl, message):
    with pytest.raises(RulesError, match=message):
        decl()


def test_initiative_must_name_each_side_once():
    enc = Encounter().with_combatant(Combatant("a", "A", "X"))
    with pytest.raises(RulesError):
        enc.with_initiative(["X"])
    enc = enc.with_combatant(Combatant("b", "B", "Y"))
    with pytest.raises(RulesError):
        enc.with_initiative(["X", "X"])
    assert enc.with_initiative(["Y", "X"]).sides == ("Y", "X")


def resolving() -> Encounter:
    enc = fight()
    enc = enc.declare(Declaration("b1", "melee", target="a1"), everyone)
    enc = enc.declare(Declaration("a1", "dodge"), everyone)
    enc = enc.declare(Declaration("a2", "shoot", target="b1", distance="near"), everyone)
    return enc.start_resolution(everyone)


def test_the_exchange_in_progress_belongs_to_the_first_pending_one():
    """Сид: «Только после этого происходят проверки (бросаются кубики)» — one exchange at a
    time; its dice are kept with the encounter until it is resolved."""
    enc = resolving()
    first, second = enc.pending()
    with pytest.raises(RulesError, match="уже не на очереди"):
        enc.with_exchange({"key": second.key, "dice": {}})
    enc = enc.with_exchange({"key": first.key, "dice": {"attacker": [1, 0, 0, 0]}})
    again = Encounter.from_dict(enc.to_dict())
    assert again == enc and again.exchange == {"key": first.key, "dice": {"attacker": [1, 0, 0, 0]}}
    enc = enc.mark_resolved(first, {"hurt": [["a1", "light"]]})
    assert enc.exchange is None and enc.outcomes == ({"key": first.key, "hurt": [["a1", "light"]]},)
    assert Encounter.from_dict(enc.to_dict()).outcomes == enc.outcomes
    with pytest.raises(RulesError, match="Сейчас нельзя бросать кубики"):
        enc.next_round().with_exchange(None)
    assert enc.next_round().outcomes == ()


def test_the_fallen_leave_the_order_with_their_declarations():
    """Сид: «Тяжелораненый персонаж не может ничего делать» — the GM takes him out."""
    enc = resolving()
    enc = enc.remove_fallen("a1")
    assert "a1" not in enc.ids()
    assert [d.actor for d in enc.declarations] == ["a2"]  # the blow at a1 goes too
    assert [p.key for p in enc.pending()] == ["a2>b1/-"]
    with pytest.raises(RulesError, match="Такого участника в бою нет"):
        enc.remove_fallen("a1")


def test_an_exception_of_the_gm_is_kept_with_the_declaration():
    """Сид: «исключения определяет ведущий»."""
    d = Declaration("a1", "melee", target="b1", distance="far", exception="только вплотную")
    enc = fight().declare(Declaration("b1", "dodge"), everyone).declare(d, everyone)
    assert Encounter.from_dict(enc.to_dict()).declarations[-1].exception == "только вплотную"


COMBATANTS = st.lists(
    st.builds(
        Combatant,
        st.sampled_from(["a", "b", "c", "d", "e"]),
        st.sampled_from(["Ярослав", "Шкуро"]),
        st.sampled_from(["Отряд", "Противники", "Засада"]),
    ),
    max_size=8,
)


@settings(max_examples=examples(100))
@given(COMBATANTS, COMBATANTS)
def test_several_combatants_at_once_are_the_same_as_one_by_one(before, added) -> None:
    """Not a rule of the book: ``with_combatants`` is ``with_combatant`` for each in turn (a
    character added twice moves to its last side, the sides in the order first met), in one
    step instead of one per combatant (issue 35: the default fight of a 5,000-character
    campaign took seconds)."""
    start = Encounter()
    for c in before:
        start = start.with_combatant(c)
    one_by_one = start
    for c in added:
        one_by_one = one_by_one.with_combatant(c)
    assert start.with_combatants(added) == one_by_one


def test_several_combatants_only_during_setup() -> None:
    with pytest.raises(RulesError, match="добавлять участников"):
        fight().with_combatants([Combatant("z", "Лыко", "Противники")])


def test_a_combatant_is_found_by_its_character_id():
    """Each character in the fight is found by its own id, nobody else's; one not in the
    fight is not found."""
    enc = fight()
    for c in enc.combatants:
        assert enc.combatant(c.character_id) is c
    assert enc.combatant("nobody") is None and enc.combatant("") is None
