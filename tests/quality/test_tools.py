"""The tools the quality gates need are installed (scripts/install.sh --browser). Under CI=true a
missing one fails here by name, as well as in every test that needs it; elsewhere it skips. And the
browser the tests start has the switches they give it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .quality_tools import TOOLS, dev_shm_has_room, require


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_tool_is_installed(tool):
    assert require(tool).exists()


def test_the_browser_disables_what_playwright_disables_and_two_more(browser):
    """Chromium takes the last --disable-features alone: the tests' own (CHROMIUM_ARGS) must come
    last and keep every feature Playwright's switch disables."""
    lists = [
        arg.split("=", 1)[1].split(",")
        for arg in _browser_command_line()
        if arg.startswith("--disable-features=")
    ]
    assert lists, "the browser was started with no --disable-features"
    last = set(lists[-1])
    assert {"RenderDocument", "SpareRendererForSitePerProcess"} <= last
    for earlier in lists[:-1]:
        assert set(earlier) <= last, (
            f"features Playwright disables that the tests' list drops: {set(earlier) - last}"
        )


def test_the_browser_keeps_its_shared_memory_in_dev_shm_when_it_has_room(browser):
    """/dev/shm with room: no --disable-dev-shm-usage (Playwright's default left out); too
    small (a container's 64 MB): the switch, and /tmp instead."""
    given = "--disable-dev-shm-usage" in _browser_command_line()
    assert given == (not dev_shm_has_room()), f"--disable-dev-shm-usage given: {given}"


def test_a_missing_dev_shm_has_no_room(tmp_path):
    assert dev_shm_has_room(str(tmp_path / "missing")) is False


def _browser_command_line() -> list[str]:
    """The command line of the browser this test process started: the descendant that Playwright
    talks to over a pipe (Chromium's helper processes have no such switch)."""
    children: dict[int, list[int]] = {}
    lines: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            lines[int(entry.name)] = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        parent = int(stat[stat.rfind(")") + 2 :].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [os.getpid()]
    while todo:
        for pid in children.get(todo.pop(), []):
            todo.append(pid)
            if any(arg.startswith("--remote-debugging-pipe") for arg in lines[pid]):
                found.append(lines[pid])
    assert len(found) == 1, f"expected one browser started by this process, found {len(found)}"
    return found[0]
