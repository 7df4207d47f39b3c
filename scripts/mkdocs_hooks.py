"""MkDocs hooks (``hooks:`` in mkdocs.yml): the repository's screenshots in the guide.

``screenshots/*.svg`` is where ``python tests/make_screenshots.py`` writes and what the README
shows; the guide takes the same files, as ``screenshots/NAME.svg`` of the site, rather than a
copy that could fall behind.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"


def on_files(files: Files, config: Any) -> Files:
    for svg in sorted(SCREENSHOTS.glob("*.svg")):
        files.append(
            File(
                f"screenshots/{svg.name}",
                src_dir=str(SCREENSHOTS.parent),
                dest_dir=config["site_dir"],
                use_directory_urls=config["use_directory_urls"],
            )
        )
    return files
