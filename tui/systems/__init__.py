"""One package per rule system: everything of the app's that is that system's alone.

``tui/systems/<name>/``: its :class:`~tui.registry.System` (``__init__``: ``SYSTEM``), its sheet's
words (``sheet``), its open check on the table engine (``check/``), its Проверка builder
(``builder/``), its ``kubik odds|check`` (``cli``); Древо also its fight of exchanges
(``fight/``), its Бой pane (``fight_pane/``) and ``kubik fight`` (``fight_cli``). Nothing
outside a system's package imports it but by a ``"module:attribute"`` string
(:mod:`tui.registry`), so a fifth system is one package here and one line in
:mod:`rules.systems`.
"""
