"""kubik's campaign store: the only code that touches TinyDB.

Screens and the CLI use :class:`Store` and the dataclasses from :mod:`tui.store.models`;
nothing outside this package sees a TinyDB document.
"""

from .models import WOUND_KEYS, Campaign, Character, LogEntry, Skill, new_id
from .storage import AtomicJSONStorage, StoreError
from .store import SCHEMA_VERSION, Store, default_campaign_path

__all__ = [
    "SCHEMA_VERSION",
    "WOUND_KEYS",
    "AtomicJSONStorage",
    "Campaign",
    "Character",
    "LogEntry",
    "Skill",
    "Store",
    "StoreError",
    "default_campaign_path",
    "new_id",
]
