"""Pure rules of kubik: dice, exact odds and the four systems.

No I/O beyond reading packaged data, and no imports of ``tui``, ``textual``,
``rich`` or ``tinydb`` (``tests/rules/test_purity.py`` proves it).
"""
