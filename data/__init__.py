"""kubik's editable tables (TOML), shipped inside the wheel.

This folder is a package only so that ``importlib.resources`` finds it both in a
checkout and in an installed wheel. Every [default] of RULES.md lives here.
"""
