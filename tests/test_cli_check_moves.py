"""`kubik check drevo`: each point of Судьба after the roll and the outcome it gives, in the
text and in --json (Старатели's Risk and IDE4's moves: their own CLI tests)."""

from __future__ import annotations

import json

from rules import drevo
from tui.cli.kubik import main


def test_a_drevo_check_says_what_each_point_of_fate_does(capsys) -> None:
    """Сид (Судьба): «+1 к результату за очко» after the roll — certain, so its chance to
    improve or worsen the outcome is 1 or 0, and the outcome is the shifted result's."""
    argv = ["check", "drevo", "--trait", "2", "--difficulty", "1", "--seed", "4"]
    main([*argv, "--json"])
    data = json.loads(capsys.readouterr().out)
    check = drevo.OneSidedCheck(drevo.Side(trait=2), 1)
    result = drevo.resolve_one_sided(check, data["dice"])
    for move in data["moves"]:
        after = drevo.shift_one_sided(result, move["points"])
        assert move["outcome"] == after.outcome
        changed = after.outcome != result.outcome
        assert (move["odds"]["better"] + move["odds"]["worse"] == 1.0) is changed
    main(argv)
    assert "Судьба после броска (очко за ±1):" in capsys.readouterr().out
