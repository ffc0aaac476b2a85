"""Where each page lives in output/, and relative links between pages.

Every link names a file (never a folder) and is relative, so the same output works from disk,
at a host's root and under any sub-path."""

from __future__ import annotations

import functools
from urllib.parse import quote

ASSETS = "assets"


def home(lang: str) -> str:
    return f"{lang}/index.html"


def report(lang: str, slug: str) -> str:
    return f"{lang}/reports/{slug}.html"


def reports(lang: str) -> str:
    return f"{lang}/reports/index.html"


def system(lang: str, ident: str) -> str:
    return f"{lang}/systems/{ident}.html"


def official(rnd: dict, path: str) -> str:
    """A file or folder in a round's official repository at the commit read (spaces escaped)."""
    return f"{rnd['repository']}/tree/{rnd['commit']}/{quote(path, safe='/+-._~()')}"


def record_system(lang: str, key: str) -> str:
    """An official system description's page; `key` is <round>/<slug> (render/record/systems.py)."""
    return f"{lang}/systems/{key}.html"


def systems(lang: str) -> str:
    return f"{lang}/systems/index.html"


def benchmark(lang: str, ident: str) -> str:
    return f"{lang}/benchmarks/{ident}.html"


def benchmarks(lang: str) -> str:
    return f"{lang}/benchmarks/index.html"


def leaderboard(lang: str, benchmark_id: str, round_id: str) -> str:
    return f"{lang}/benchmarks/{benchmark_id}/{round_id}.html"


def benchmark_at_scale(lang: str, benchmark_id: str, scale: int) -> str:
    """A benchmark at one accelerator count, round by round (render/record/at_scale.py)."""
    return f"{lang}/benchmarks/{benchmark_id}/at-{scale}.html"


def round_page(lang: str, round_id: str) -> str:
    return f"{lang}/rounds/{round_id}.html"


def rounds(lang: str) -> str:
    return f"{lang}/rounds/index.html"


def result(lang: str, ident: str) -> str:
    return f"{lang}/results/{ident}.html"


def claims(lang: str) -> str:
    return f"{lang}/claims/index.html"


def sources(lang: str) -> str:
    return f"{lang}/sources/index.html"


def methodology(lang: str) -> str:
    return f"{lang}/methodology.html"


# The methodology's section on derived figures (accelerator-minutes, scaling efficiency,
# speed-up, the noise band): its heading's id, written in both languages' page.
DERIVED_ANCHOR = "derived-figures"


def derived_figures(lang: str) -> str:
    return f"{methodology(lang)}#{DERIVED_ANCHOR}"


# The methodology's section on throughput per accelerator (derive/throughput.py).
THROUGHPUT_ANCHOR = "throughput"


def throughput(lang: str) -> str:
    return f"{methodology(lang)}#{THROUGHPUT_ANCHOR}"


def glossary(lang: str) -> str:
    return f"{lang}/glossary.html"


def asset(name: str) -> str:
    return f"{ASSETS}/{name}"


def twin(path: str, lang: str) -> str:
    """The same page in another language: pages of every language share one layout."""
    return f"{lang}/{path.split('/', 1)[1]}"


@functools.lru_cache(maxsize=65536)
def relative(from_page: str, to: str) -> str:
    """Link from one output file to another (to may carry a #fragment).

    Both are clean paths inside output/, so plain string work does what posixpath.relpath
    does, without its call to os.getcwd() (the hottest line of a big build)."""
    target, hash_, fragment = to.partition("#")
    here = from_page.split("/")[:-1]
    there = target.split("/")
    common = 0
    while common < len(here) and common < len(there) - 1 and here[common] == there[common]:
        common += 1
    link = "/".join([".."] * (len(here) - common) + there[common:])
    return f"{link}#{fragment}" if hash_ else link


def anchor(kind: str, ident: str) -> str:
    return f"{kind}-{ident}"


def downloads(lang: str) -> str:
    return f"{lang}/downloads.html"


def submitters(lang: str) -> str:
    return f"{lang}/submitters/index.html"


def submitter(lang: str, slug: str, round_id: str | None = None) -> str:
    """A submitter's page; with a round, the page of that round's results (long lists)."""
    return f"{lang}/submitters/{slug}/{round_id}.html" if round_id else f"{lang}/submitters/{slug}.html"


def accelerators(lang: str) -> str:
    return f"{lang}/accelerators/index.html"


def accelerator(lang: str, slug: str, round_id: str | None = None) -> str:
    return f"{lang}/accelerators/{slug}/{round_id}.html" if round_id else f"{lang}/accelerators/{slug}.html"


def record_changes(lang: str) -> str:
    return f"{lang}/rounds/changes.html"


def compare_results(lang: str) -> str:
    """The compare page: results picked by id in the URL fragment (#id,id,...)."""
    return f"{lang}/compare.html"


def record_data(round_id: str) -> str:
    """The compare page's data of one round, a plain script loaded on demand."""
    return f"{ASSETS}/record/{round_id}.js"


def explore(lang: str) -> str:
    """The explorer: any selection of the record's results, kept in the URL fragment."""
    return f"{lang}/explore.html"


def explore_data(round_id: str) -> str:
    """The explorer's data of one round, a plain script loaded on demand (works from file://)."""
    return f"{ASSETS}/explore/{round_id}.js"


def explore_csv(round_id: str) -> str:
    """The round's CSV lines for the explorer's download of a selection (loaded on demand)."""
    return f"{ASSETS}/explore-csv/{round_id}.js"
