"""The interface strings of content/i18n/: read, converted for a converted language, and
checked (every key in every language, the same placeholders, no character a page cannot show)."""

from __future__ import annotations

from pathlib import Path
from string import Formatter

from sitegen.base import languages
from sitegen.base.errors import Problems
from sitegen.base.languages import Languages
from sitegen.content import field_types
from sitegen.content.parsecache import cached
from sitegen.content.readers import LINE, key_line, read_yaml


def _check_placeholders(strings: dict, raws: dict, content: Path, problems: Problems) -> None:
    """Each interface string has the same {placeholders} in every language, well formed."""
    fields: dict[tuple, set | None] = {}  # (language, key) -> the names its text uses
    for lang, table in strings.items():
        for key, text in table.items():
            try:
                fields[lang, key] = {name for _, name, _, _ in Formatter().parse(text) if name is not None}
            except ValueError as exc:
                problems.add(
                    content / "i18n" / f"{lang}.yaml",
                    key_line(raws[lang], key),
                    f"string '{key}': {exc} (write {{name}}, or {{{{ for a brace)",
                )
                fields[lang, key] = None
    first = next(iter(strings), None)
    for lang, table in strings.items():
        for key in table:
            mine, theirs = fields.get((lang, key)), fields.get((first, key))
            if lang != first and mine is not None and theirs is not None and mine != theirs:
                for wrong, right in _typo_sides((lang, mine), (first, theirs), fields, key):
                    odd = sorted(wrong[1] - right[1]) or sorted(right[1] - wrong[1])
                    problems.add(
                        content / "i18n" / f"{wrong[0]}.yaml",
                        key_line(raws.get(wrong[0], {}), key),
                        f"string '{key}': placeholder {{{odd[0]}}} does not match the "
                        f"{right[0]} text ({', '.join('{' + n + '}' for n in sorted(right[1])) or 'none'})"
                        + field_types.suggest(odd[0], right[1]),
                    )


def _typo_sides(one: tuple, other: tuple, fields: dict, key: str) -> list[tuple]:
    """[(wrong, right)] of two (language, placeholders) of one string that differ: the side
    with a placeholder no other string of any language has (a typo such as {totl}) is the
    wrong one; when that does not tell, each side is said at its own line. (Before, it was
    always the second language's file: a typo in en.yaml was reported in zh.yaml.)"""
    used = {name for (_, other_key), names in fields.items() if other_key != key and names for name in names}
    unique = [side for side in (one, other) if (side[1] - (one[1] & other[1])) - used]
    if len(unique) == 1:
        wrong = unique[0]
        return [(wrong, other if wrong is one else one)]
    return [(other, one), (one, other)]


def _check_characters(raw: dict, path: Path, problems: Problems) -> None:
    """An interface string reaches pages and charts: the check of every data field (a YAML
    escape such as "\\x1b" in a chart's axis title aborted vl-convert)."""
    for key, value in raw.items():
        why = field_types.bad_character(value) if key != LINE and isinstance(value, str) else None
        if why:
            problems.add(path, key_line(raw, key), f"string '{key}': {why}")


def load_strings(content: Path, langs: Languages, problems: Problems) -> tuple[dict, dict]:
    """(every language's interface strings, lang -> key -> its line in the language's own
    file). The strings: i18n/<lang>.yaml; a converted language's from its source, its own
    file's keys winning; each key in every language, with the same placeholders, of characters
    a page can show."""
    strings: dict[str, dict[str, str]] = {}
    raws: dict[str, dict] = {}
    for lang in langs:
        path = content / "i18n" / f"{lang}.yaml"
        source = langs.get(lang).source
        raw = (
            cached("yaml", path, problems, lambda path=path: read_yaml(path, problems))
            if path.exists()
            else None
        )
        if not path.exists() and source is None:
            problems.add(path, None, f"missing interface strings for '{lang}': create this file")
        elif raw is None and path.exists():  # unreadable, and said so: none of it is "missing"
            continue
        raw = raw if isinstance(raw, dict) else {}
        raws[lang] = raw
        _check_characters(raw, path, problems)
        own = {k: langs.tidy(str(v), lang) for k, v in raw.items() if k != LINE and v is not None}
        if source is not None:  # converted from its source; its own file wins
            own = {**{k: langs.convert(v, lang) for k, v in strings.get(source, {}).items()}, **own}
        strings[lang] = own
    every = set().union(*(s.keys() for s in strings.values())) if strings else set()
    for lang, table in strings.items():
        for key in sorted(k for k in every - table.keys() if not k.endswith(languages.ONE)):
            problems.add(
                content / "i18n" / f"{lang}.yaml",
                None,
                f"missing interface string '{key}' (the other language has it)",
            )
    _check_placeholders(strings, raws, content, problems)
    lines = {lang: {str(k): key_line(raw, k) for k in raw if k != LINE} for lang, raw in raws.items()}
    return strings, lines
