"""The Журнал's plain text of a markup line is what the screen shows (Textual's own reading):
the engine and the command line write it without loading Textual."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.markup import to_content

from rules.drevo import Action, Fighter, plan_exchange, resolve_exchange_with_dice, weapon
from tui.present.markup import plain_text
from tui.present.rolls import plain
from tui.systems.drevo.present import plan_lines, result_lines

FACES = st.tuples(*[st.integers(-1, 1)] * 4)


@settings(max_examples=60, deadline=None)
@given(
    name=st.text(min_size=1, max_size=12),
    trait=st.integers(-3, 4),
    a=FACES,
    b=FACES,
    defence=st.sampled_from(["dodge", "melee", None]),
)
def test_exchange_lines_read_as_textual_reads_them(name, trait, a, b, defence) -> None:
    """Every line of a rolled exchange, with any name a person typed in it."""
    plan = plan_exchange(
        Fighter(name, weapon=weapon("Меч"), trait=trait),
        Action("melee"),
        Fighter(name + "\\", weapon=weapon("Нож"), trait=1),
        Action(defence) if defence else None,
        "close",
    )
    lines = plan_lines(plan) + result_lines(resolve_exchange_with_dice(plan, a, b))
    for line in [*lines, f"[$error]Нельзя: {plain(name)}[/]", f"[b {plain('x')}]y[/]"]:
        assert plain_text(line) == to_content(line).plain, line
