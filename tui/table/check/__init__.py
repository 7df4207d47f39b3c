"""The open check of the Проверка tab: what every system's check shares (:mod:`.base`) and the
session (:mod:`.session`) that keeps the rolled check in the campaign. Each system's own check
(a typed state, the view derived from it and the sheets, the steps, the words) is its
package's ``check/`` (``tui/systems/<name>/check/``), found by its ``System.check_engine``."""
