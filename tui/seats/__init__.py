"""Players at their own seats (issue 20): a seat sends requests, the GM's app decides.

* :mod:`tui.seats.protocol` — the versioned JSON-lines messages and their strict checks;
* :mod:`tui.seats.tokens` — the private folder, the per-seat tokens and the socket's path;
* :mod:`tui.seats.state` — what a seat may read: the players' view plus its own characters;
* :mod:`tui.seats.hub` — the GM's side: the Unix-socket server, pending requests, decisions;
* :mod:`tui.seats.stats` — the luck stats a seat may see (the players' view's), asked with «s»;
* :mod:`tui.seats.rules_check` — which request a seat may make now; what an accepted one writes;
* :mod:`tui.seats.gm` — the GM's indicator and the Ctrl+P dialog (accept, edit, refuse, always);
* :mod:`tui.seats.seat` — ``kubik seat NAME``: the players' view and a private panel, with its
  parts: ``seat_link`` (the connection), ``seat_draw`` (the screen), ``seat_choices`` (the
  choice keys, the declaration), ``seat_stats`` (the luck stats of «s»);
* :mod:`tui.cli.serve_seat` — ``kubik serve --seat NAME``: a seat in a browser, behind its key.
"""
