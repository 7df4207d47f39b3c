"""kubik draws no animations unless TEXTUAL_ANIMATIONS asks for them
(tui/widgets/common/motion.py)."""

from __future__ import annotations

import pytest

from tui.store import Store
from tui.view import ViewApp


@pytest.mark.parametrize("env, level", [(None, "none"), ("full", "full"), ("basic", "basic")])
def test_animations_are_off_unless_the_environment_asks(
    monkeypatch, make_test_app, campaign_path, env, level
) -> None:
    if env is None:
        monkeypatch.delenv("TEXTUAL_ANIMATIONS", raising=False)
    else:
        monkeypatch.setenv("TEXTUAL_ANIMATIONS", env)
        # Textual reads the variable once, at import; an app started with it set has it.
        monkeypatch.setattr("textual.constants.TEXTUAL_ANIMATIONS", env)
    assert make_test_app().animation_level == level
    assert ViewApp(Store.open(campaign_path)).animation_level == level
