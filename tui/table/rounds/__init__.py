"""The round tracker of IDE4, Старатели and Мир Тьмы as the engine runs it.

The state is :class:`rules.rounds.Tracker` (frozen: the roster and sides, the turn order and
each initiative roll, the round and whose turn it is), read from the campaign's ``rounds``
document as the party stands now (:func:`.state.current`: removed characters out of the
order, renamed ones under their new names). The steps (:mod:`.steps`) set sides, roll
initiative the system's way, pass the turn (the effects tick in the same step, through
:func:`tui.table.effects.steps.tick`), end the fight, and write harm as the system has it.
What the Бой tab shows is derived in :mod:`.view`; :mod:`.session` reads, steps and writes.
"""
