"""``python -m tui`` does what ``kubik`` does."""

from tui.cli import main

raise SystemExit(main())
