"""Древо's part of the Партия tab on the table engine, headless: which of its keys apply to a
character and what their dialogs offer (:mod:`.view`), and the steps they make — a wound, a
wound healed, the GM's point of Судьба, Судьба spent on a circumstance (:mod:`.steps`). The
keys themselves are ``tui/systems/drevo/party_keys.py``: they open the dialogs and dispatch.
"""
