"""Древо's Бой pane: the widgets of its fight of exchanges (``pane``: ``CombatPane``; its
parts: ``setup``, ``declare``, ``draw``, ``forms``, ``store``, ``part``), driving its engine
(``tui.systems.drevo.fight``)."""
