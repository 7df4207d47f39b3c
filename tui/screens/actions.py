"""What the app's campaign keys do: settings, the campaign picker, export and import.

Kept out of ``tui/app.py`` so the app stays a list of keys; every function takes the app as a
:class:`tui.host.CampaignHost` (what it needs of it), never imports it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tui.host import CampaignHost
from tui.screens.campaign_files import delete_campaign, new_campaign_path
from tui.screens.campaigns import CampaignsScreen
from tui.screens.settings import SettingsScreen
from tui.store import CampaignCorrupt, CampaignExists, Store, StoreError, default_campaign_path
from tui.store.errors import os_reason
from tui.store.storage import atomic_write_text
from tui.widgets.common.choice import Choice, ChoiceScreen
from tui.widgets.common.prompt import TextPrompt


def read_only_text(store: Store) -> str:
    """Return the banner of a read-only campaign (empty when it is writable)."""
    if not store.read_only:
        return ""
    return "Только чтение: " + (
        store.read_only_reason or "кампания открыта без права записи, изменения не сохраняются."
    )


def campaign_folders(app: CampaignHost) -> list[Path]:
    """Return the folders the picker lists: the open campaign's, earlier ones, the default."""
    folders = [app.store.path.parent, *app.campaign_folders, default_campaign_path().parent]
    return list(dict.fromkeys(f.resolve() for f in folders if f.is_dir()))


def open_settings(app: CampaignHost) -> None:
    """Show the campaign settings screen."""
    app.push_screen(SettingsScreen(app.store))


def open_campaigns(app: CampaignHost) -> None:
    """Show the campaign picker and carry out what the GM picks."""

    def done(result: tuple[str, Any] | None) -> None:
        if result is None:
            return
        verb, arg = result
        if verb == "open":
            app.run_worker(open_path(app, Path(arg)), exclusive=True)
        elif verb == "create":
            app.run_worker(create(app, *arg), exclusive=True)
        elif verb == "rename":
            store = app.store

            def renamed(_: None) -> None:  # in the app's writer: the UI never waits for the lock
                if app.store is store:
                    app.sub_title = store.campaign.name
                app.services.notify(f"Кампания переименована: «{arg}».")

            app.services.write(lambda: store.rename(arg), renamed)
        elif verb == "delete":
            try:
                delete_campaign(Path(arg))
            except StoreError as err:
                app.services.notify(str(err), severity="error", timeout=10)
                return
            app.services.notify(f"Кампания удалена: {Path(arg).name}.")

    app.push_screen(
        CampaignsScreen(app.store.path, app.store.campaign.name, campaign_folders(app)), done
    )


async def switch_store(app: CampaignHost, store: Store) -> None:
    """Replace the app's campaign with ``store`` and rebuild the tabs for its system."""
    old = app.store
    app.campaign_folders = [*app.campaign_folders, old.path.parent]
    old.unsubscribe(app._store_notified)
    await app.services.writes_done()  # what was written to the old campaign is on disk
    app.services.watch.stop()
    old.close()
    app.services.store = store
    app.sub_title = store.campaign.name
    app.services.redraw.apply_settings(store.get_doc("settings"))
    await app.recompose()
    store.subscribe(app._store_notified)
    app.services.watch.start()
    app.redraw_all()
    app.action_focus_tab()
    app.services.notify(f"Открыта кампания «{store.campaign.name}».")


async def open_path(app: CampaignHost, path: Path) -> None:
    """Open the campaign at ``path``; a damaged file offers its newest good backup."""
    try:
        store = Store.open(path)
    except CampaignCorrupt as err:
        if not err.backups:
            app.services.notify(str(err), severity="error", timeout=15)
            return
        newest = err.backups[0]
        answer = await app.push_screen_wait(
            ChoiceScreen(
                f"{err}",
                [
                    Choice(f"Восстановить из копии {newest.name}", True),
                    Choice("Не открывать", False),
                ],
            )
        )
        if not answer:
            return
        try:
            aside = Store.restore_backup(path, newest)
            store = Store.open(path)
        except StoreError as err2:
            app.services.notify(str(err2), severity="error", timeout=15)
            return
        if aside is not None:
            app.services.notify(f"Повреждённый файл сохранён как {aside.name}.", timeout=10)
    except StoreError as err:
        app.services.notify(str(err), severity="error", timeout=15)
        return
    await switch_store(app, store)


async def create(app: CampaignHost, source: str, system: str, name: str) -> None:
    """Create a campaign (a system's demo party, or nobody) called ``name`` and open it."""
    path = new_campaign_path(default_campaign_path().parent, name)
    try:
        store = Store.open(path, system=system)
        if source == "empty":
            store.apply("Пустая партия", delete=[c.id for c in store.characters()])
        store.rename(name)
    except StoreError as err:
        app.services.notify(str(err), severity="error", timeout=15)
        return
    await switch_store(app, store)


def open_transfer(app: CampaignHost) -> None:
    """Ask what to export or import, then where."""
    stem = app.store.path.stem
    home = Path.home()
    jobs = {
        "export": ("Экспорт кампании в JSON", home / f"{stem}-export.json"),
        "markdown": ("Журнал в Markdown", home / f"{stem}-journal.md"),
        "import": ("Импорт кампании из JSON (новая кампания)", home / f"{stem}-export.json"),
        "luck": ("Удача последней сессии в Markdown (для игроков)", home / f"{stem}-luck.md"),
    }

    def chosen(job: str | None) -> None:
        if job is None:
            return
        title, default = jobs[job]

        def typed(text: str | None) -> None:
            if text is None:
                return
            path = Path(text or str(default)).expanduser()
            if job == "import":
                app.run_worker(import_campaign(app, path), exclusive=True)
            else:
                export(app, job, path)

        app.push_screen(TextPrompt(f"{title}: путь к файлу", str(default), required=False), typed)

    choices = [Choice(title, job) for job, (title, _) in jobs.items()]
    app.push_screen(ChoiceScreen("Экспорт и импорт", choices), chosen)


def export(app: CampaignHost, job: str, path: Path) -> None:
    """Write the campaign as JSON or the Журнал as Markdown to ``path``."""
    try:
        if job == "export":
            app.store.export_json(path)
        else:
            from tui.present.luck import store_markdown  # the luck ledger (issue 19)

            text = app.store.log_markdown() if job == "markdown" else store_markdown(app.store)
            try:
                atomic_write_text(path, text)  # private, like the file
            except OSError as err:
                raise StoreError(
                    f"Не удалось записать {path}: {os_reason(err)}. "
                    "Проверьте папку и свободное место на диске."
                ) from err
    except StoreError as err:
        app.services.notify(str(err), severity="error", timeout=15)
        return
    app.services.notify(f"Записано: {path}")


async def import_campaign(app: CampaignHost, source: Path) -> None:
    """Import an export file as a new campaign in the data folder and open it."""
    target = new_campaign_path(default_campaign_path().parent, source.stem)
    try:
        campaign = Store.import_json(source, target)
    except CampaignExists as err:  # pragma: no cover - new_campaign_path picks a free name
        app.services.notify(str(err), severity="error", timeout=15)
        return
    except StoreError as err:
        app.services.notify(str(err), severity="error", timeout=15)
        return
    app.services.notify(f"Импортирована кампания «{campaign.name}» в {target.name}.")
    if campaign.note:
        app.services.notify(campaign.note, severity="warning", timeout=15)
    await open_path(app, target)
