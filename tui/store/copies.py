"""The campaign copied out and back in: its backups, a JSON export and import, Markdown.

Glue between the store and :mod:`tui.store.backups`, :mod:`tui.store.transfer` and
:mod:`tui.store.files`: the formats and the file work live there.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from . import backups as bk
from .errors import StoreError, os_reason, write_error_message
from .files import import_campaign, restore_backup
from .migrations import DOCS, SCHEMA_VERSION
from .reads import ReadSide
from .state import default_campaign_path
from .storage import atomic_write_bytes, private_mkdir
from .tables import copy_json
from .transfer import Imported, export_payload, log_markdown, read_export
from .writes import LOCK_TIMEOUT


class Copies(ReadSide):
    """Backups, export and import of a store's campaign."""

    # -- backups, export, import ----------------------------------------------------------

    def backups(self) -> list[Path]:
        """Return the backups of this campaign: the rotating ones newest first, then the
        copies kept before a migration (never pruned), newest first."""
        return bk.all_backups(self.path)

    @staticmethod
    def restore_backup(
        path: Path, backup: Path, *, lock_timeout: float = LOCK_TIMEOUT
    ) -> Path | None:
        """Replace the campaign at ``path`` with ``backup``; return where the old file went.

        A damaged campaign file is kept aside as ``<name>.corrupt-<timestamp>`` (and that
        path is returned); a good one becomes a backup like before any write (returns None).
        Close open stores first, or let them :meth:`refresh`.

        Raises:
            StoreError: the backup itself is unusable, or the folder is not writable.
        """
        return restore_backup(Path(path), Path(backup), lock_timeout)

    def export_json(self, path: Path) -> None:
        """Write the whole campaign (meta, characters, docs, Журнал) to ``path`` as JSON.

        Raises:
            StoreError: ``path`` is this campaign's own file, or cannot be written.
        """
        import json

        path = Path(path)
        own = {self.path.resolve(), self.log_path.resolve()}
        if path.resolve() in own:
            raise StoreError(f"{path} — файл самой кампании; выберите другой путь для экспорта.")
        with self._mutex:
            self._check_open()
            docs = {
                str(d["name"]): copy_json(d.get("value"))
                for d in self._tables.get(DOCS, {}).values()
            }
            payload = export_payload(
                self._campaign,
                self.characters(),
                docs,
                list(reversed(self.log())),  # with the «отменено» marks the Журнал shows
                datetime.now().astimezone().isoformat(timespec="seconds"),
            )
        data = json.dumps(payload, ensure_ascii=False, indent=1).encode("utf-8")
        try:
            atomic_write_bytes(path, data)
        except OSError as err:
            raise StoreError(
                f"Не удалось записать экспорт {path}: {os_reason(err)}. "
                "Проверьте папку и свободное место на диске."
            ) from err

    @classmethod
    def import_json(
        cls,
        source: Path,
        target_path: Path | None = None,
        *,
        force: bool = False,
        lock_timeout: float = LOCK_TIMEOUT,
    ) -> Imported:
        """Create the campaign ``target_path`` from an export file; return its description.

        An existing campaign is replaced only with ``force=True``: its file becomes a
        backup and its Журнал is moved into the backups folder. The undo history starts
        empty, but the Журнал keeps its «отменено» marks; an export from before kubik wrote
        them imports unmarked, and :attr:`Imported.note` says so (None when nothing is lost).

        Raises:
            CampaignExists: the target exists and ``force`` is False.
            StoreError: the export is invalid (the message names why) or cannot be written.
        """
        exported = read_export(Path(source))
        target = Path(target_path).expanduser() if target_path else default_campaign_path()
        if target.is_dir():
            raise StoreError(f"{target} — это папка, а не файл кампании. Укажите путь к файлу.")
        try:
            private_mkdir(target.parent)
        except OSError as err:
            raise StoreError(write_error_message(target, err)) from err
        import_campaign(exported, target, force=force, lock_timeout=lock_timeout)
        return Imported(exported.name, exported.system, SCHEMA_VERSION, note=exported.note())

    def log_markdown(self, limit: int | None = None) -> str:
        """Return the Журнал (its newest ``limit`` entries, or all) as Markdown, oldest
        first, one heading per day."""
        with self._mutex:
            self._check_open()
            name = self._campaign.name
        return log_markdown(name, list(reversed(self.log(limit))))
