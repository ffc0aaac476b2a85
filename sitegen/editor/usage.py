"""Checks of the command line's values that argparse does not make: each a one-line usage
error (exit 2), said before any work."""

from __future__ import annotations

import argparse
from pathlib import Path

# The commands that read the content folder, and those that read the templates.
READS_CONTENT = {None, "build", "check", "status", "serve", "new"}
READS_TEMPLATES = {None, "build", "check", "serve"}


def port(text: str) -> int:
    """--port: 0 to 65535 (0: a free one), else argparse's one-line usage error."""
    digits = text.strip()
    value = int(digits) if digits.isascii() and digits.isdigit() else -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give a number from 0 to 65535")
    return value


def missing_folder(command: str | None, content: Path, templates: Path) -> str | None:
    """What is wrong with a content or templates folder the command reads, or None."""
    for kind, folder, readers in (
        ("content", content, READS_CONTENT),
        ("templates", templates, READS_TEMPLATES),
    ):
        if command in readers and not folder.is_dir():
            state = "is not a folder" if folder.exists() else "does not exist"
            return f"the {kind} folder {folder} {state} (--{kind} DIR names another)"
    return None
