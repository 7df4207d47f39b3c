"""``kubik serve`` takes its page's folder away when it stops (found in the suite's temp folder:
325 ``kubik-serve-*`` folders left behind, one per server ever started)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tui.cli import serve, serve_web

# The package, not its server module: that one brings aiohttp (~0.4 s of CPU), which every
# worker collecting this file paid; the test's own `kubik serve` imports it when it runs.
pytest.importorskip("textual_serve", reason="the serve extra is not installed")


class FakeServer:
    """textual-serve's Server, without a socket: it records the page folder it was given."""

    seen: list[Path] = []
    stops_with: type[BaseException] | None = None

    def __init__(self, *args, templates, **kwargs) -> None:
        self.templates = Path(templates)
        self.ending = serve_web.Ending()

    def serve(self) -> None:
        assert (self.templates / "app_index.html").is_file()  # there while it serves
        FakeServer.seen.append(self.templates)
        if FakeServer.stops_with is not None:
            raise FakeServer.stops_with


@pytest.mark.parametrize("stop", [None, KeyboardInterrupt], ids=["returns", "ctrl-c"])
def test_the_page_folder_is_removed_when_the_server_stops(
    tmp_path, monkeypatch, capsys, stop
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(serve_web, "guarded_server", FakeServer)
    monkeypatch.setattr(FakeServer, "seen", [])
    monkeypatch.setattr(FakeServer, "stops_with", stop)
    if stop is None:
        assert serve.cmd_serve(["--port", "8765"]) == 0
    else:
        with pytest.raises(stop):
            serve.cmd_serve(["--port", "8765"])
    [folder] = FakeServer.seen
    assert folder.parent == tmp_path
    assert not folder.exists()
    assert list(tmp_path.iterdir()) == []
