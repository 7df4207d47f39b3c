"""The table engine: what a GM does at the table, as typed states and pure steps.

Textual-free (an import contract says so). A state is a frozen value (a fight, an open check,
a round tracker); a step is a function ``step(state, world, …) -> Outcome``: ``world`` is all
the step may read (the sheets, the campaign's effects, the Журнал's earlier dice, the roller),
and the :class:`~tui.table.core.Outcome` says everything the step did as data — the new
state, the sheets it changed, its Журнал lines, or the reason the rules refuse it. The store
writes an outcome as one undo step (:mod:`tui.table.commit`); the Бой tab, the players' seats,
``kubik fight`` and the tests call the same steps.
"""
