"""What the note after a "fastest" result names (templates/_level_mark.html lays it out): the
first results level with it, and how their scales are said, once for all, once per scale or
with each result."""

from __future__ import annotations

from dataclasses import dataclass

NAMED = 3  # level results named; the others are counted


@dataclass(frozen=True)
class LevelMark:
    """form: "each" (the named results share one accelerator count, said once), "grouped"
    (several share a count: said once per count) or "plain" (each result with its own);
    groups: (count, results at it) in the order the results come; more: results not named."""

    form: str
    shown: list
    groups: list[tuple[int, list]]
    more: int
    after: str  # the string key of the closing words


def level_mark(level: list) -> LevelMark:
    """The note's shape for `level`, the results level with a fastest one, in their order."""
    shown = list(level[:NAMED])
    counts = list(dict.fromkeys(x["accelerator_count"] for x in shown))  # each once, first seen first
    shared = len(counts) < len(shown) and all(counts)
    form = "each" if shared and len(counts) == 1 else "grouped" if shared else "plain"
    groups = [(count, [x for x in shown if x["accelerator_count"] == count]) for count in counts]
    after = "level.after_each" if shared else "level.after"
    return LevelMark(form, shown, groups, max(len(level) - NAMED, 0), after)
