"""Regular expressions an editor writes (the rules of data/chips.yaml): checked when read, and
matched with a time bound, so that no rule can keep a build busy.

A rule is read with Python's own `re` (its syntax and its messages), refused when one of its
repetitions holds another of variable length (`(.+)+`, `(a*)*`: the shape whose backtracking
grows exponentially with the text), and matched through the `regex` library, whose `timeout`
stops any match that still takes too long (a shape the check above does not see)."""

from __future__ import annotations

import re

# CPython's own parser of its patterns (private modules, unchanged in form since Python 2:
# tests/site/test_hostile_input.py shows when a new Python changes them)
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]

import regex

MATCH_SECONDS = 1.0  # a rule takes microseconds on a record's string; over this it is refused
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


class SlowRule(Exception):
    """A rule took longer than MATCH_SECONDS on one string."""

    def __init__(self, text: str, subject: str, line: int | None = None, variant: str = ""):
        super().__init__(text, subject)
        self.text, self.subject, self.line, self.variant = text, subject, line, variant

    def message(self) -> str:
        return (
            f"variant '{self.variant}': '{self.text}' takes more than {MATCH_SECONDS:g} s to match "
            f"'{self.subject}'; write it more simply"
        )


def compile_rule(text: str) -> tuple[regex.Pattern | None, str | None]:
    """(the pattern, matching case-insensitively; None) or (None, why it is refused)."""
    try:
        parsed = sre_parse.parse(text, re.IGNORECASE)
        re.compile(text, re.IGNORECASE)  # what the parse alone lets through (look-behind width)
    except re.error as exc:
        return None, f"'{text}' is not a regular expression ({exc})"
    if _nested_repeat(parsed.data, inside=False):
        return None, (
            f"'{text}' repeats a part that itself repeats (as in '(a+)+'), which can take "
            "minutes to match; write it without the nested repetition"
        )
    return regex.compile(text, regex.IGNORECASE | regex.VERSION0), None


def fullmatch(pattern: regex.Pattern, subject: str, memo: dict | None = None) -> bool:
    """Whether `pattern` matches the whole of `subject`; SlowRule past MATCH_SECONDS. `memo`:
    answers kept for one run (a record repeats its strings; each match with a time bound
    costs a few microseconds)."""
    key = (pattern.pattern, subject)
    if memo is not None and key in memo:
        return memo[key]
    try:
        found = pattern.fullmatch(subject, timeout=MATCH_SECONDS) is not None
    except TimeoutError:
        raise SlowRule(pattern.pattern, subject) from None
    if memo is not None:
        memo[key] = found
    return found


def _nested_repeat(items, inside: bool) -> bool:
    """Whether a repetition of variable length that may repeat more than once (`+`, `*`,
    `{2,5}`; not `?`) sits inside another that may (`inside`)."""
    for op, value in items:
        if op in _REPEATS:
            low, high, body = value
            if inside and high > 1 and high != low:
                return True
            if _nested_repeat(body.data, inside or high > 1):
                return True
        elif op is sre.SUBPATTERN:
            if _nested_repeat(value[-1].data, inside):
                return True
        elif op is sre.BRANCH:
            if any(_nested_repeat(branch.data, inside) for branch in value[1]):
                return True
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            if _nested_repeat(value[1].data, inside):
                return True
        elif op is sre.GROUPREF_EXISTS:
            if any(b is not None and _nested_repeat(b.data, inside) for b in value[1:]):
                return True
        elif op is sre.ATOMIC_GROUP:
            if _nested_repeat(value.data, inside):
                return True
    return False
