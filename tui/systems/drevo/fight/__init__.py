"""A Древо fight as the engine runs it: the encounter (``rules.encounter.Encounter``, frozen)
with its exchange in progress typed (:mod:`.exchange`), what every screen shows of it derived
from the state and the sheets (:mod:`.view`), and the steps (:mod:`.steps`)."""
