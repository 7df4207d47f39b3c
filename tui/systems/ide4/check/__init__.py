"""IDE4's open check on the table engine (headless): its typed state (``state``), the view
derived from it and the sheets (``view``), the steps (``steps``), the words (``text``) and the
module the shared session drives (``engine``; ``tui.table.check.session``)."""
