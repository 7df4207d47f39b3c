"""kubik's campaign store: the only code that touches TinyDB.

Screens and the CLI use :class:`Store` and the dataclasses from :mod:`tui.store.models`;
nothing outside this package sees a TinyDB document. See :mod:`tui.store.store` for the
files of a campaign and how concurrent kubiks share one.
"""

from . import bestiary as _bestiary  # noqa: F401 - registers its documents' schema checks
from .backups import KEEP as BACKUPS_KEPT
from .errors import (
    CampaignCorrupt,
    CampaignExists,
    ChangeRefused,
    DanglingLink,
    NotRegularFile,
    StaleWrite,
    StoreBusy,
    StoreError,
    StoreReadOnly,
    UndoRefused,
)
from .history import UNDO_LIMIT
from .migrations import MIGRATIONS, SCHEMA_VERSION
from .models import WOUND_KEYS, Campaign, Character, LogEntry, Skill, new_id
from .storage import AtomicJSONStorage, check_campaign_path
from .store import LOCK_TIMEOUT, Edit, Store, default_campaign_path

__all__ = [
    "BACKUPS_KEPT",
    "LOCK_TIMEOUT",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "UNDO_LIMIT",
    "WOUND_KEYS",
    "AtomicJSONStorage",
    "Campaign",
    "CampaignCorrupt",
    "CampaignExists",
    "ChangeRefused",
    "Character",
    "DanglingLink",
    "Edit",
    "LogEntry",
    "NotRegularFile",
    "Skill",
    "StaleWrite",
    "UndoRefused",
    "Store",
    "StoreBusy",
    "StoreError",
    "StoreReadOnly",
    "check_campaign_path",
    "default_campaign_path",
    "new_id",
]
