"""One look per chip family on every chart: data/chip_looks.yaml (the page's backgrounds, a
palette of colours, and each family's colour and shape), read with file:line errors and given
to the pages as the table `chip_looks` ({family page: {id, colour, shape}}), so that a page
drawing a family depends on its look (content/tracking.py).

Checked as read: every colour stands out 3:1 against both backgrounds (WCAG's contrast ratio,
computed by coloraide), every family is one of chips.yaml's, and no two families share a
colour and a shape. A family the file leaves out takes the first free pair (palette order,
then SHAPES), so every family drawn has a look of its own; without the file no family has one
(the charts then draw it in the text colour)."""

from __future__ import annotations

import math
import re
from pathlib import Path

from sitegen.base.errors import Problems
from sitegen.content.field_types import suggest
from sitegen.content.parsecache import cached
from sitegen.content.readers import LINE, key_line, read_yaml

TABLE = "chip_looks"
LOOKS_FILE = ("data", "chip_looks.yaml")
SHOWN = "content/data/chip_looks.yaml"
# the shapes a look may take (render/charts/scale_svg.py draws each; the Vega charts take the
# same paths)
SHAPES = ("circle", "square", "triangle-up", "diamond", "triangle-down", "plus", "cross", "triangle-right")
THEMES = ("light", "dark")
MIN_CONTRAST = 3.0  # WCAG 2.1, non-text contrast: graphical objects
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def contrast(one: str, other: str) -> float:
    """WCAG 2.1's contrast ratio of two colours (1 to 21)."""
    from coloraide import Color  # 0.2 s to import: only a load whose chip looks are read again needs it

    return float(Color(one).contrast(Color(other), method="wcag21"))


def look_of(tables: dict, family: str | None) -> dict:
    """A family's {colour, shape} in the site's tables; CPU only, a string no rule classifies
    and a site without the file: no colour (the charts' ink) and a circle."""
    found = tables.get(TABLE, {}).get(family) if family else None
    return (
        {"colour": found["colour"], "shape": found["shape"]} if found else {"colour": None, "shape": "circle"}
    )


def read_looks(content: Path, families: dict, problems: Problems) -> dict:
    """The `chip_looks` table for `families` (chip_facts' table: page -> fact); {} without
    the file. Each mistake is reported at its line."""
    path = content.joinpath(*LOOKS_FILE)
    if not path.is_file():
        return {}
    data = cached("yaml", path, problems, lambda: read_yaml(path, problems))
    if not isinstance(data, dict) or not all(isinstance(data.get(k), dict) for k in ("colours", "looks")):
        problems.add(path, 1, "chip_looks.yaml must be a mapping with 'backgrounds', 'colours' and 'looks'")
        return {}
    # a function of the file alone, kept with its parse (measuring contrast imports coloraide)
    palette = cached("chip_looks_palette", path, problems, lambda: _palette(data, path, problems))
    found = _looks(data["looks"], families, palette, path, problems)
    return _completed(found, families, palette)


def _palette(data: dict, path: Path, problems: Problems) -> dict[str, str | None]:
    """The colours (name -> #rrggbb; None: not a colour, said once), each checked against the
    backgrounds."""
    backgrounds = data.get("backgrounds")
    if not isinstance(backgrounds, dict) or not all(HEX.match(str(backgrounds.get(t))) for t in THEMES):
        problems.add(
            path,
            key_line(data, "backgrounds", 1),
            "'backgrounds' needs 'light' and 'dark', each a colour written #rrggbb",
        )
        backgrounds = {}
    palette: dict[str, str | None] = {}
    for name, value in data["colours"].items():
        if name == LINE:
            continue
        line = key_line(data["colours"], name)
        if not HEX.match(str(value)):
            problems.add(path, line, f"colour '{name}': {value!r} is not a colour written #rrggbb")
            palette[str(name)] = None
            continue
        palette[str(name)] = str(value)
        for theme in THEMES if backgrounds else ():
            ratio = contrast(str(value), backgrounds[theme])
            if ratio < MIN_CONTRAST:
                problems.add(
                    path,
                    line,
                    f"colour '{name}' ({value}) stands out {math.floor(ratio * 100) / 100:.2f}:1 against "
                    f"the {theme} background {backgrounds[theme]}; a mark needs at least 3:1",
                )
    return palette


def _looks(looks: dict, families: dict, palette: dict, path: Path, problems: Problems) -> dict:
    """Family page -> {colour, shape, line} as written; unknown names and shared looks reported."""
    found: dict[str, dict] = {}
    held: dict[tuple, str] = {}
    for key, look in looks.items():
        if key == LINE:
            continue
        line = key_line(looks, key)
        if key not in families:
            problems.add(path, line, f"unknown chip family '{key}'{suggest(str(key), families)}")
            continue
        parsed = _look(key, look, palette, path, line, problems)
        if parsed is None:
            continue
        pair = (parsed["colour"].casefold(), parsed["shape"])
        if pair in held:
            first = held[pair]
            problems.add(
                path,
                line,
                f"family '{key}' has the look of '{first}' (line {found[first]['line']}): "
                f"{look['colour']} {look['shape']}; give each family a colour and shape of its own",
            )
            continue
        held[pair] = key
        found[key] = {**parsed, "line": line}
    return found


def _look(key: str, look, palette: dict, path: Path, line, problems: Problems) -> dict | None:
    """{colour: #rrggbb, shape} of one family's entry, or None (reported)."""
    if not isinstance(look, dict) or not {"colour", "shape"} <= set(look):
        problems.add(path, line, f"family '{key}': a look is {{colour: <name>, shape: <name>}}")
        return None
    if look["colour"] in palette and palette[look["colour"]] is None:
        return None  # the colour's own line says what is wrong with it
    if look["colour"] not in palette:
        problems.add(
            path,
            line,
            f"family '{key}': unknown colour '{look['colour']}' (the colours: {', '.join(palette)})",
        )
        return None
    if look["shape"] not in SHAPES:
        problems.add(
            path, line, f"family '{key}': unknown shape '{look['shape']}' (the shapes: {', '.join(SHAPES)})"
        )
        return None
    return {"colour": palette[look["colour"]], "shape": look["shape"]}


def _completed(found: dict, families: dict, palette: dict) -> dict:
    """Every family's look: as written, else the first colour-and-shape pair no family holds."""
    held = {(look["colour"].casefold(), look["shape"]) for look in found.values()}
    colours = [colour for colour in palette.values() if colour]
    free = [
        (colour, shape) for shape in SHAPES for colour in colours if (colour.casefold(), shape) not in held
    ]
    table = {}
    for key in families:
        look = found.get(key)
        if look is None and not free:
            continue
        colour, shape = (look["colour"], look["shape"]) if look else free.pop(0)
        table[key] = {
            "id": key,
            "colour": colour,
            "shape": shape,
            "_file": SHOWN,
            LINE: look and look["line"],
        }
    return table
