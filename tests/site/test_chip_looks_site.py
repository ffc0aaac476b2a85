"""One look per chip family across every chart of the built shipped site, in its three languages:
each chart's legend read back from the output (the Vega-Lite specs of the progress, report and
record-block charts, the scale charts' legends and drawings, the explorer's data, the chip pages'
drawings) gives a family the colour content/data/chip_looks.yaml gives it and always the same
shape; no two families share both; a legend names the families its chart draws and only those.
Expected looks are read from the data files here, not from the code."""

from __future__ import annotations

import html as htmllib
import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh", "zh-hant")
SPEC = re.compile(r'<script type="application/json" class="chart-spec(?:-narrow)?">(.*?)</script>', re.S)
LEGEND_ITEM = re.compile(
    r'<li><svg class="scale-key"[^>]*><path d="([^"]*)" fill="([^"]*)" stroke="([^"]*)"[^>]*/></svg>([^<]*)</li>'
)


def expected() -> dict[str, tuple[str, str]]:
    """Family name (as its page and legends write it) -> (colour, shape) from the data files."""
    chips = yaml.safe_load((ROOT / "content/data/chips.yaml").read_text("utf-8"))
    data = yaml.safe_load((ROOT / "content/data/chip_looks.yaml").read_text("utf-8"))
    found = {}
    for vendor in chips:
        for family in vendor["families"]:
            key = re.sub(r"[^a-z0-9]+", "-", f"{vendor['vendor']} {family['family']}".casefold()).strip("-")
            look = data["looks"][key]
            found[family["family"]] = (data["colours"][look["colour"]].casefold(), look["shape"])
    return found


MULTIPLE = re.compile(r'<span class="multiple-title">([^<]*)</span>(<svg.*?</svg>)', re.S)
MULTIPLE_POINT = re.compile(r'<path class="multiple-point"[^>]* d="([^"]*)"[^>]* stroke="([^"]*)"')


def signature(path: str) -> object:
    """A shape whatever its size or writer: "circle" for a circle (Vega's name, or arcs), else
    its corners scaled to a unit box and rounded."""
    if path == "circle" or "A" in path:
        return "circle"
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path)]
    if not numbers:
        return path  # one of Vega's named shapes (a series that is no family)
    scale = max(abs(n) for n in numbers)
    return tuple(round(n / scale, 1) for n in numbers)


def spec_legends(spec: dict):
    """(field, domain, colours, shapes) of every encoding whose colour and shape name one field
    (the merged legend of a colour-and-shape chart), in every layer and panel; and the spec's rows."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            colour, shape = (node.get("color"), node.get("shape")) if "color" in node else (None, None)
            if (
                isinstance(colour, dict)
                and isinstance(shape, dict)
                and colour.get("field") == shape.get("field")
            ):
                cs, ss = colour.get("scale") or {}, shape.get("scale") or {}
                if "domain" in cs and "range" in ss:
                    found.append((colour["field"], cs["domain"], cs["range"], ss["range"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec)
    return found, (spec.get("data") or {}).get("values") or []


def seen_looks(output: Path) -> tuple[dict[str, set], list[str]]:
    """Family name -> every (colour, shape signature, where) the output draws it with; and the
    legends that name a family their chart does not draw."""
    families = expected()
    seen: dict[str, set] = {}
    strays = []

    def note(name, colour, shape, where):
        if name in families:
            seen.setdefault(name, set()).add((colour.casefold(), shape, where))

    for lang in LANGS:
        for page in sorted((output / lang).rglob("*.html")):
            text = page.read_text("utf-8")
            where = page.relative_to(output).as_posix()
            for raw in SPEC.findall(text):
                legends, rows = spec_legends(json.loads(htmllib.unescape(raw)))
                for field, domain, colours, shapes in legends:
                    if rows and set(domain) != {row[field] for row in rows}:
                        strays.append(f"{where}: {sorted(set(domain) ^ {row[field] for row in rows})}")
                    for name, colour, shape in zip(domain, colours, shapes):
                        note(name, colour, signature(shape), where + " spec")
            for path, fill, stroke, name in LEGEND_ITEM.findall(text):
                if fill == stroke:  # a family's key (the hollow and ideal keys have no fill)
                    note(htmllib.unescape(name), fill, signature(path), where + " scale")
            key = re.search(r'<dd class="chip-look"[^>]*><svg[^>]*><path d="([^"]*)" fill="([^"]*)"', text)
            if key:  # a chip page's key of its family's look
                name = htmllib.unescape(re.search(r"<h1[^>]*>([^<]*)</h1>", text).group(1)).strip()
                note(name, key.group(2), signature(key.group(1)), where + " key")
            for chart_id in ("chart-chip-progress", "chart-at-scale"):  # small multiples
                if f'id="{chart_id}"' not in text:
                    continue
                figure = text[text.index(f'id="{chart_id}"') :]
                figure = figure[: figure.index("</figure>")]
                h1 = re.search(r"<h1[^>]*>([^<]*)</h1>", text).group(1)
                for title, panel in MULTIPLE.findall(figure):
                    # a chip page's panels are its family's; an equal-scale page's, each its own
                    name = htmllib.unescape(h1 if chart_id == "chart-chip-progress" else title).strip()
                    for d, stroke in MULTIPLE_POINT.findall(panel):
                        note(name, stroke, signature(d), where + " multiples")
    return seen, strays


def explorer_looks(output: Path, lang: str) -> dict[str, tuple[str, object]]:
    text = (output / lang / "explore.html").read_text("utf-8")
    looks = json.loads(htmllib.unescape(re.search(r"data-looks='([^']*)'", text).group(1)))
    names = json.loads(htmllib.unescape(re.search(r"data-names='([^']*)'", text).group(1)))["chip"]
    return {
        names[key]: ((colour or "").casefold(), signature(shape)) for key, (colour, shape) in looks.items()
    }


@pytest.fixture(scope="module")
def drawn(shipped_site):
    return seen_looks(shipped_site)


def test_every_family_keeps_one_colour_and_one_shape_on_every_chart(drawn):
    seen, _ = drawn
    families = expected()
    assert len(seen) >= 20  # most families are drawn somewhere
    shapes = {}
    for name, looks in seen.items():
        colours = {colour for colour, _, _ in looks}
        assert colours == {families[name][0]}, (name, sorted(looks)[:4])
        signatures = {shape for _, shape, _ in looks}
        assert len(signatures) == 1, (name, sorted(looks)[:4])
        shapes[name] = signatures.pop()
    pairs = [(families[name][0], shape) for name, shape in shapes.items()]
    assert len(set(pairs)) == len(pairs)  # no two families look alike
    # the same shape name is the same drawing wherever it is drawn
    by_name: dict[str, set] = {}
    for name, shape in shapes.items():
        by_name.setdefault(families[name][1], set()).add(shape)
    assert all(len(drawings) == 1 for drawings in by_name.values()), by_name


def test_each_kind_of_chart_draws_families_in_every_language(drawn):
    seen, _ = drawn
    kinds = {
        (where.split("/")[0], where.split(" ")[-1] if " " in where else "chip")
        for looks in seen.values()
        for *_, where in looks
    }
    for lang in LANGS:
        assert {(lang, "spec"), (lang, "scale"), (lang, "multiples"), (lang, "key")} <= kinds


def test_legends_name_only_what_their_chart_draws(drawn):
    _, strays = drawn
    assert strays == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_explorer_gets_the_same_looks_from_its_page(shipped_site, drawn, lang):
    seen, _ = drawn
    families = expected()
    looks = explorer_looks(shipped_site, lang)
    for name, (colour, shape) in looks.items():
        if name in families:
            assert colour == families[name][0]
            drawn_shapes = {s for _, s, _ in seen.get(name, ())}
            assert drawn_shapes <= {shape}, name
    assert set(families) <= set(looks)
