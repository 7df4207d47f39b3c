"""Effects and the scene clock as the engine runs them (any system, the Древо fight too).

The state is the campaign's :class:`rules.effects.EffectSet` (the effects and the scene
clock, frozen); where a fight stands for them is :class:`~.time.FightTime` (read from the
round tracker or the Древо fight, :mod:`.time`). The steps (:mod:`.steps`) add, remove, hide
and show an effect, move the clock, and tick the effects past a fight's boundaries — the one
tick the round tracker's turns and the Древо fight's next round both make. What a screen shows
of them is derived in :mod:`.view`; :mod:`.session` reads, steps and writes against a store.
"""
