"""The open check of the Проверка tab, one set of modules per system (ide4, starately, wod,
drevo): a typed state, the view derived from it and the sheets, the steps, the words, and the
session (:mod:`.session`) that keeps the rolled check in the campaign. See
:mod:`.base` for what every system shares."""
