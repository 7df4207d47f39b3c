"""The bestiary's steps made from a key: read the campaign's shelf, make the step, write its
outcome as one undo step — in the app's writer (a worker), never on the UI thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tui.services.lent import StepServices

if TYPE_CHECKING:  # the engine loads with the first bestiary key, not the first screen
    from textual.notifications import SeverityLevel

    from tui.table.core import Outcome


class StepNeeds(StepServices, Protocol):
    """What :func:`run_step` uses: a widget that declares these services
    (``tui/services/lent.py``), or the services themselves (the bestiary screen's), and its
    toasts."""

    def notify(
        self, message: str, *, severity: SeverityLevel = ..., timeout: float | None = ...
    ) -> None: ...


def run_step(
    app: StepNeeds,
    step: Callable[..., Outcome[Any]],
    *args: Any,
    done: Callable[[Outcome[Any]], object] | None = None,
    **kwargs: Any,
) -> None:
    """Make ``step`` on the campaign as it is when the write runs, and tell the GM: its label
    when written, the reason when refused (nothing is written then)."""
    from tui.table.bestiary.session import BestiarySession
    from tui.table.core import Dice

    store, rng, entry = app.store, app.rng, app.journal.entry

    def job() -> Outcome[Any]:
        from tui.store import StoreError
        from tui.store.schema import SchemaError

        try:
            return BestiarySession(store, Dice(rng), entry).run(step, *args, **kwargs)
        except SchemaError as err:  # a hand edit broke the campaign's own bestiary
            raise StoreError(f"Бестиарий кампании повреждён: {err}") from err

    def told(outcome: Outcome[Any]) -> None:
        if not outcome.ok:
            app.notify(outcome.refused, severity="error", timeout=8)
        else:
            app.notify(outcome.label)
            for notice in outcome.notices:
                app.notify(notice, severity="warning")
        if done is not None:
            done(outcome)

    app.writer.write(job, told)


def encounters_in_party(characters: Any) -> dict[str, int]:
    """The prepared encounters whose NPCs are in the party now: name → how many."""
    found: dict[str, int] = {}
    for c in characters:
        name = c.from_encounter
        if name:
            found[name] = found.get(name, 0) + 1
    return found
