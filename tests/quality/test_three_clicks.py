"""Issue 31's reader questions, answered from the home page in at most three clicks in every
language: the fastest result of each current benchmark and its scale (on the home page itself),
time against accelerators (a benchmark page's scale chart), a chip family's progress at equal
scale and against its next generation (its chip page), and any selection as a link (the
explorer). The links are followed in the shipped site's HTML; the expected results are read
from the record's files here, not from the site's code."""

import posixpath
import re
from collections import deque
from pathlib import Path

import pytest

LANGS = ("en", "zh", "zh-hant")
HREF = re.compile(r'href="([^"#?]+\.html)[^"]*"')
# Generation lines of issue 31 (its "A100 → H100 → B200 → GB200/GB300; MI300X → MI325X →
# MI355X; TPU v4 → v5p → Trillium"), as chip page names.
FAMILIES = (
    "nvidia-a100 nvidia-h100 nvidia-b200 nvidia-gb200 nvidia-gb300 "
    "amd-mi300x amd-mi325x amd-mi355x google-tpu-v4 google-tpu-v5p google-trillium"
).split()


def reachable(output: Path, start: str, depth: int) -> dict[str, int]:
    """Every page linked from `start` within `depth` clicks, with its fewest clicks."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        page = queue.popleft()
        if seen[page] == depth:
            continue
        html = (output / page).read_text(encoding="utf-8")
        folder = posixpath.dirname(page)
        for href in HREF.findall(html):
            if "://" in href:
                continue
            target = posixpath.normpath(posixpath.join(folder, href))
            if target not in seen and (output / target).is_file():
                seen[target] = seen[page] + 1
                queue.append(target)
    return seen


@pytest.fixture(scope="module")
def current(shipped_record):
    """The latest round's benchmarks and, for each, the fastest timed closed result."""
    results = shipped_record
    order = sorted({r["round"] for r in results}, key=lambda v: tuple(int(x) for x in v[1:].split(".")))
    latest = order[-1]
    best: dict[str, dict] = {}
    for r in results:
        if r["round"] == latest and r["division"] == "closed" and r["value"] is not None:
            if r["benchmark"] not in best or r["value"] < best[r["benchmark"]]["value"]:
                best[r["benchmark"]] = r
    return latest, best


@pytest.mark.parametrize("lang", LANGS)
def test_the_fastest_of_each_current_benchmark_and_its_scale_are_on_the_home_page(
    shipped_site, current, lang
):
    latest, best = current
    assert len(best) == 7  # v5.1 ran seven benchmarks
    home = (shipped_site / lang / "index.html").read_text(encoding="utf-8")
    items = dict(
        re.findall(
            r'<li class="suite-item" data-benchmark="([^"]+)">(.*?)</li>\s*(?=<li class="suite-item"|</ol>)',
            home,
            re.S,
        )
    )
    assert set(items) == set(best)
    for benchmark, result in best.items():
        first = re.search(
            r'<a class="time" href="results/([^"]+)\.html">.*?<span class="on">([\d,]+) ×',
            items[benchmark],
            re.S,
        )
        assert first, benchmark
        assert first.group(1) == result["id"]
        assert int(first.group(2).replace(",", "")) == result["accelerator_count"]


@pytest.mark.parametrize("lang", LANGS)
def test_scale_charts_chip_progress_and_the_explorer_are_within_three_clicks(shipped_site, current, lang):
    _, best = current
    seen = reachable(shipped_site, f"{lang}/index.html", 3)
    for benchmark in best:
        page = f"{lang}/benchmarks/{benchmark}.html"
        assert seen.get(page, 9) <= 3, page
        assert 'class="chart chart-static chart-scale"' in (shipped_site / page).read_text(encoding="utf-8")
    for family in FAMILIES:
        page = f"{lang}/accelerators/{family}.html"
        assert seen.get(page, 9) <= 3, page
        html = (shipped_site / page).read_text(encoding="utf-8")
        assert '<h2 id="progress"' in html and '<h2 id="generations"' in html, page
    assert seen.get(f"{lang}/explore.html", 9) == 1
