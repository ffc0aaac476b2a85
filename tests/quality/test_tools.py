"""The tools the quality gates need are installed (scripts/install.sh --browser). Under CI=true a
missing one fails here by name, as well as in every test that needs it; elsewhere it skips."""

from __future__ import annotations

import pytest

from .quality_tools import TOOLS, require


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_tool_is_installed(tool):
    assert require(tool).exists()
