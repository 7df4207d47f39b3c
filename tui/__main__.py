"""``python -m tui`` does what ``kubik`` does."""

from tui.cli.kubik import main

raise SystemExit(main())
