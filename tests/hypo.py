"""How hard hypothesis tries: sized for the default run, ten times that with
``--hypothesis-profile=thorough`` (the profiles are registered in tests/conftest.py).

A test names what the default run needs, ``examples(n)``; the thorough run is for a change to
the rules or the store, where a rare sequence matters more than two minutes.
"""

from __future__ import annotations

from hypothesis import settings

#: The thorough run's examples per default run's example.
THOROUGH = 10


def thorough() -> bool:
    """Whether this run uses the ``thorough`` profile."""
    return settings.get_current_profile_name() == "thorough"


def examples(n: int) -> int:
    """``n`` examples in the default run, :data:`THOROUGH` times ``n`` in the thorough one."""
    return n * THOROUGH if thorough() else n
