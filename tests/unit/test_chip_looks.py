"""data/chip_looks.yaml (sitegen/content/chip_looks.py): each mistake is one `file:line` error,
pinned word for word; a family left out takes the first free pair; and the shipped file gives
every family of chips.yaml a look of its own whose colour stands out 3:1 against both of the
stylesheet's backgrounds, by WCAG 2.1's formula computed here."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from sitegen.base.errors import Problems
from sitegen.content import chip_looks

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = {"acme-a1": {}, "acme-a2": {}, "zenith-z1": {}}  # chip_facts' table: its keys

GOOD = """\
backgrounds:
  light: "#ffffff"
  dark: "#0d1117"
colours:
  blue: "#0072B2"
  vermillion: "#D55E00"
looks:
  acme-a1: {colour: blue, shape: circle}
  zenith-z1: {colour: vermillion, shape: square}
"""


def read(tmp_path: Path, text: str, families: dict = FAMILIES) -> tuple[dict, list[str]]:
    content = tmp_path / "content"
    (content / "data").mkdir(parents=True, exist_ok=True)
    (content / "data" / "chip_looks.yaml").write_text(text, "utf-8")
    problems = Problems(content)
    table = chip_looks.read_looks(content, families, problems)
    return table, [str(p) for p in problems.items]


def wcag_contrast(one: str, other: str) -> float:
    """WCAG 2.1: (L1 + 0.05) / (L2 + 0.05) of the relative luminances, lighter over darker."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_a_good_file_gives_each_family_its_look_and_the_one_left_out_the_first_free_pair(tmp_path):
    table, problems = read(tmp_path, GOOD)
    assert problems == []
    looks = {key: (row["colour"], row["shape"]) for key, row in table.items()}
    # acme-a2 is left out: circles are taken in blue, so vermillion circles (shapes in turn, each
    # with every colour of the palette in order)
    assert looks == {
        "acme-a1": ("#0072B2", "circle"),
        "acme-a2": ("#D55E00", "circle"),
        "zenith-z1": ("#D55E00", "square"),
    }
    assert table["acme-a1"]["__line__"] == 8 and table["acme-a2"]["__line__"] is None


def test_no_file_no_looks(tmp_path):
    assert chip_looks.read_looks(tmp_path, FAMILIES, Problems(tmp_path)) == {}
    assert chip_looks.look_of({}, "acme-a1") == {"colour": None, "shape": "circle"}


def test_a_colour_without_3_to_1_against_a_background_is_refused_at_its_line(tmp_path):
    # Okabe-Ito orange: light enough for the dark theme, too light for the white page
    ratio = wcag_contrast("#E69F00", "#ffffff")
    assert 2.25 < ratio < 2.26
    _, problems = read(tmp_path, GOOD.replace('  vermillion: "#D55E00"', '  orange: "#E69F00"'))
    assert problems[0] == (
        "content/data/chip_looks.yaml:6: colour 'orange' (#E69F00) stands out 2.25:1 against the light "
        "background #ffffff; a mark needs at least 3:1"
    )
    # Tol's high-contrast blue: dark enough for the white page, too dark for the dark theme
    assert 1.96 < wcag_contrast("#004488", "#0d1117") < 1.97
    _, problems = read(tmp_path, GOOD.replace('"#0072B2"', '"#004488"'))
    assert problems == [
        "content/data/chip_looks.yaml:5: colour 'blue' (#004488) stands out 1.96:1 against the dark "
        "background #0d1117; a mark needs at least 3:1"
    ]


def test_an_unknown_family_is_named_with_the_nearest(tmp_path):
    _, problems = read(tmp_path, GOOD.replace("acme-a1:", "acme-a11:"))
    assert problems == [
        "content/data/chip_looks.yaml:8: unknown chip family 'acme-a11' (did you mean 'acme-a1'?)"
    ]


def test_two_families_may_not_share_a_colour_and_a_shape(tmp_path):
    _, problems = read(
        tmp_path, GOOD.replace("{colour: vermillion, shape: square}", "{colour: blue, shape: circle}")
    )
    assert problems == [
        "content/data/chip_looks.yaml:9: family 'zenith-z1' has the look of 'acme-a1' (line 8): blue circle; "
        "give each family a colour and shape of its own"
    ]
    # two names for one colour are one colour
    twice = GOOD.replace('  vermillion: "#D55E00"', '  navy: "#0072b2"').replace(
        "vermillion, shape: square", "navy, shape: circle"
    )
    _, problems = read(tmp_path, twice)
    assert problems == [
        "content/data/chip_looks.yaml:9: family 'zenith-z1' has the look of 'acme-a1' (line 8): navy circle; "
        "give each family a colour and shape of its own"
    ]


def test_unknown_colours_shapes_and_malformed_entries(tmp_path):
    cases = {
        "{colour: teal, shape: square}": "content/data/chip_looks.yaml:9: family 'zenith-z1': unknown colour "
        "'teal' (the colours: blue, vermillion)",
        "{colour: vermillion, shape: star}": "content/data/chip_looks.yaml:9: family 'zenith-z1': unknown shape "
        "'star' (the shapes: circle, square, triangle-up, diamond, triangle-down, plus, cross, triangle-right)",
        "vermillion": "content/data/chip_looks.yaml:9: family 'zenith-z1': a look is {colour: <name>, shape: <name>}",
    }
    for look, message in cases.items():
        _, problems = read(tmp_path, GOOD.replace("{colour: vermillion, shape: square}", look))
        assert problems == [message]
    _, problems = read(tmp_path, GOOD.replace('"#D55E00"', '"#D55E0"'))
    assert problems == [
        "content/data/chip_looks.yaml:6: colour 'vermillion': '#D55E0' is not a colour written #rrggbb"
    ]
    _, problems = read(tmp_path, GOOD.replace('  dark: "#0d1117"\n', ""))
    assert problems == [
        "content/data/chip_looks.yaml:1: 'backgrounds' needs 'light' and 'dark', each a colour written #rrggbb"
    ]
    _, problems = read(tmp_path, "- acme-a1\n")
    assert problems == [
        "content/data/chip_looks.yaml:1: chip_looks.yaml must be a mapping with 'backgrounds', 'colours' and 'looks'"
    ]


# ---- the shipped file ----------------------------------------------------------------------


def stylesheet_backgrounds() -> dict[str, str]:
    """--bg of the light theme (the first :root) and of the dark one (prefers-color-scheme)."""
    css = (ROOT / "templates/static/style.css").read_text("utf-8")
    light = re.search(r":root\s*\{[^}]*--bg:\s*(#[0-9a-fA-F]{6})", css).group(1)
    dark_block = css[css.index("@media (prefers-color-scheme: dark)") :]
    dark = re.search(r"--bg:\s*(#[0-9a-fA-F]{6})", dark_block).group(1)
    return {"light": light, "dark": dark}


def shipped() -> dict:
    return yaml.safe_load((ROOT / "content/data/chip_looks.yaml").read_text("utf-8"))


def chips_families() -> set[str]:
    """Every family page of content/data/chips.yaml (<vendor>-<family>, slugged)."""
    rows = yaml.safe_load((ROOT / "content/data/chips.yaml").read_text("utf-8"))
    return {
        re.sub(r"[^a-z0-9]+", "-", f"{v['vendor']} {f['family']}".casefold()).strip("-")
        for v in rows
        for f in v["families"]
    }


def test_the_shipped_backgrounds_are_the_stylesheets():
    assert shipped()["backgrounds"] == stylesheet_backgrounds() == {"light": "#ffffff", "dark": "#0d1117"}


def test_every_shipped_colour_stands_out_3_to_1_in_both_themes():
    data = shipped()
    for name, colour in data["colours"].items():
        for theme, background in stylesheet_backgrounds().items():
            assert wcag_contrast(colour, background) >= 3, (name, theme)
    assert len(data["colours"]) == 6


def test_every_family_of_chips_yaml_has_a_look_of_its_own_written_down():
    looks = shipped()["looks"]
    assert set(looks) == chips_families() and len(looks) == 33
    pairs = [(look["colour"], look["shape"]) for look in looks.values()]
    assert len(set(pairs)) == len(pairs)
    # the six families with the most results each have a colour of their own
    first = list(looks.values())[:6]
    assert len({look["colour"] for look in first}) == 6


def test_the_shapes_are_the_ones_the_scale_chart_draws():
    from sitegen.render.charts import scale_svg

    assert set(chip_looks.SHAPES) == set(scale_svg.SHAPES)


def test_the_colours_of_series_that_are_no_family_stand_out_3_to_1_too():
    """A chart's benchmarks (the home page's, a record block's) are drawn in
    colours of their own: each readable in both themes as well."""
    from sitegen.render.charts import headline, progress

    colours = set(progress.COLOURS) | set(headline.COLOURS)
    assert len(colours) == 8  # the home chart's eight, which record blocks share
    for colour in colours:
        for theme, background in stylesheet_backgrounds().items():
            assert wcag_contrast(colour, background) >= 3, (colour, theme)


def test_a_file_read_again_takes_its_checked_palette_from_the_store(tmp_path):
    """The palette's contrast check is a function of the file alone: kept with its parse, so a
    load of the unchanged file measures nothing (coloraide's import is 0.2 s); an edited file is
    measured again (the store's count of its parses: Store.work)."""
    from sitegen.base.store import Store

    content = tmp_path / "content"
    (content / "data").mkdir(parents=True)
    path = content / "data" / "chip_looks.yaml"
    path.write_text(GOOD, "utf-8")
    store = Store(tmp_path / "cache")

    def load() -> dict:
        return chip_looks.read_looks(content, FAMILIES, Problems(content, store=store))

    first = load()
    assert store.work == {"files parsed": 2}  # the file, and its palette measured
    assert load() == first and store.work == {"files parsed": 2, "parses reused": 2}
    path.write_text(GOOD.replace("#0072B2", "#0072B3"), "utf-8")
    assert load()["acme-a1"]["colour"] == "#0072B3" and store.work["files parsed"] == 4
    store.close()
