"""The parts of ``tui.app.KubikApp`` beside compose, bindings and routing, one concept a module.

Each module holds a mixin that ``KubikApp`` is composed of (as ``ExchangeMixin`` is of the
Бой pane): the toasts as plain text (``notices``), the ordered store writer (``writer``), the
redraw from the store (``redraw``), the campaign file's watch (``watch``), the tab panes built
on their first visit and the keys that switch to them (``panes``), the work after the first
paint (``startup``), the focus contract's screen and moves (``focus``), the Журнал entries
(``journal``), undo and redo (``history``), sharing the table with the players (``sharing``),
copying (``copying``) and the keys that open the app's own screens (``dialogs``). They never
import ``tui.app``; the app imports them.
"""
