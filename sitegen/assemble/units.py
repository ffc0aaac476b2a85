"""One unit of rendering: a page with the files made with it (a report's single-file copy, its
charts), made now or taken as the last build left it, in one language's process
(rendering.py). The units of a language are its page kinds' (render/kinds.py), in their order."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sitegen.assemble.state import Unit, docs_sum
from sitegen.assemble.write import merge_same, put_files
from sitegen.base.cache import sha
from sitegen.base.errors import Problem
from sitegen.content import usage
from sitegen.content.model import Site
from sitegen.content.textcheck import cjk_spaces
from sitegen.render.kinds import Kind, Run
from sitegen.render.search import doc_text, noindex, search_entry
from sitegen.render.single_file import single_file_copy
from sitegen.render.theme import Strings, Theme


@dataclass
class Language:
    """One job's work in progress: what it renders from, and what it has made so far."""

    site: Site
    theme: Theme
    lang: str
    t: Strings
    destination: Any  # rendering.Destination, or None: the files are kept, not written
    css: str = ""
    rel: Callable[[Any], str] = str  # a source file's name in problems (errors.Problems.rel)
    problems: list = field(default_factory=list)
    kept: dict[str, bytes] = field(
        default_factory=dict
    )  # not written here: all, or those every language makes
    written: dict[str, str] = field(default_factory=dict)
    # the search entries of the units made now (unit key -> entries: search.doc_text, or the
    # record's rows); the digest of every unit's, in the order made (the index's: end_units.py);
    # the pages' units, in order; how to make a reused unit's again (key -> (digest, function))
    docs: dict = field(default_factory=dict)
    sums: list = field(default_factory=list)
    pages: list = field(default_factory=list)
    recall: dict = field(default_factory=dict)
    stored: dict = field(default_factory=dict)  # unit key -> entries read back, None: not kept (read_back)
    hidden: list = field(default_factory=list)
    units: dict = field(
        default_factory=dict
    )  # unit key -> (state.Unit, or None for a reused one, rendered now)
    linked: dict[str, str] = field(default_factory=dict)
    unchanged: dict[str, str] = field(default_factory=dict)  # own files of reused units, linked at the end
    spaces: list = field(default_factory=list)


def take_reused(work: Language, unit_key: tuple, old: Unit, report=None, make=None) -> None:
    """A unit the last build made, taken as it is: its own files hard-linked at the end, the
    files every language makes passed on, its problems as they were; its search entries are
    read back only if the index is made again (recalled)."""
    own = {p: h for p, h in old.files.items() if owned(p, work.lang)}
    work.unchanged.update(own)
    work.linked.update((p, h) for p, h in old.files.items() if p not in own)
    work.sums.append((unit_key, old.sum))
    work.pages.append(unit_key)
    if old.sum and make is not None:
        work.recall[unit_key] = (old.sum, partial(_made_again, work, report, make))
    work.hidden += old.hidden
    work.problems += old.problems
    work.units[unit_key] = (None, False)  # the parent has it: destination.reuse


def make_unit(work: Language, unit_key: tuple, report, make) -> None:
    """A unit rendered now: its pages (and a report's single-file copy), their search entries,
    their problems; written at once when there is a destination."""
    site, lang, problems = work.site, work.lang, work.problems
    said = len(problems)
    with site.reads.collect() as reads:
        files = make()
        if any(not problem.warning for problem in problems):
            return  # keep going only to find every problem
        if report is not None:
            site.reads.note(("static",), "*")
        files, unit_docs, unit_hidden = _with_entries(work, report, files)
    if site.languages.get(lang).cjk:  # every page's spaces, once its content is right
        work.spaces += cjk_space_problems(files)
    if site.languages.get(lang).script == "Hant":  # mainland usage on a Taiwan page
        sources = usage.unit_sources(site, unit_key[1:], lang)
        problems += usage.page_problems(files, site.usage, sources, work.rel, lang)
    work.docs[unit_key] = unit_docs
    work.sums.append((unit_key, docs_sum(unit_docs)))
    work.pages.append(unit_key)
    work.hidden += unit_hidden
    shas = keep_or_write(files, lang, work.kept, work.destination, mine=unit_key[1] == "data")
    shas.update((path, sha(data)) for path, data in files.items() if path not in shas)
    work.written.update((path, digest) for path, digest in shas.items() if path not in work.kept)
    work.units[unit_key] = (Unit(shas, reads, docs_sum(unit_docs), unit_hidden, problems[said:]), True)


def _with_entries(work: Language, report, files: dict) -> tuple[dict, list, list]:
    """(a unit's files with a report's single-file copy, its pages' search entries as the
    index writes them (end_files.py), its pages kept out of search engines)."""
    trees: dict = {}  # a page parsed for its single-file copy, taken again for its search document
    if report is not None:
        files.update(single_file_copy(work.site, work.theme, files, report, work.css, work.t, trees))
    docs, hidden = [], []
    for path, data in files.items():
        doc = search_entry(work.site, path, data, work.lang, work.t, trees.pop(path, None))
        if doc:
            docs.append(doc_text(doc))
        elif path.endswith(".html") and noindex(data):
            hidden.append(path)
    return files, docs, hidden


def _made_again(work: Language, report, make) -> list:
    """A reused unit's search entries, from its pages made again (its last entries could not
    be read back); nothing written, no read noted."""
    return _with_entries(work, report, make())[1]


def read_back(work: Language, digests: dict, load: Callable[[dict], dict]) -> None:
    """The kept entries of reused units (unit key -> the digest of its entries) not read yet,
    read at once (`load`: state_store.load_entries): noted in work.stored, None for a unit
    whose entries are not kept (then made again: recalled)."""
    wanted = {
        key: digest for key, digest in digests.items() if key not in work.stored and key not in work.docs
    }
    if wanted:
        found = load(wanted)
        work.stored.update((key, found.get(key)) for key in wanted)


def recalled(
    work: Language, unit_key: tuple, digest: bytes, make: Callable[[], list], load, verify: bool
) -> list:
    """A reused unit's search entries: as the last build kept them (read_back, by the shard
    that needs them, or alone here), else made again; `verify`: made again too, and a kept one
    that differs, or is not the one its digest names, stops the build.

    Kept entries read back are those the unit's digest names (state_store.load_entries checks
    it: a damaged or another build's entry is never taken); those made again are kept for the
    next build (end_units.keep_entries)."""
    if unit_key not in work.stored:
        read_back(work, {unit_key: digest}, load)
    kept = work.stored.get(unit_key)
    if verify and kept is not None and docs_sum(kept) != digest:
        raise RuntimeError(f"kept search entries of {unit_key} are not those its digest names")
    if kept is None or verify:
        said = len(work.problems)
        with work.site.reads.paused():
            made = make()
        del work.problems[said:]  # said when the unit was made
        if kept is not None and made != kept:
            raise RuntimeError(f"kept search entries of {unit_key} differ from a fresh rendering")
        return made
    return kept


def cjk_space_problems(files: dict[str, bytes]) -> list[Problem]:
    """An ASCII space between two CJK characters on a Chinese (Japanese, Korean) page is an
    error naming the page and the place (generated text included)."""
    problems = []
    for path, data in files.items():
        if path.endswith(".html"):
            found = cjk_spaces(data.decode("utf-8"))
            if found:
                more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
                problems.append(
                    Problem(
                        f"output/{path}",
                        None,
                        f"ASCII space between two CJK characters: '{found[0]}'{more}; remove it",
                    )
                )
    return problems


def owned(path: str, lang: str, alone: Collection[str] = ()) -> bool:
    """Whether a language's process writes the file itself: it lies in the language's own
    folders, or only that language makes it (`alone`: its search index); the files every
    language makes go back to the one process that writes them."""
    return path in alone or lang in path.split("/")[:-1]


def keep_or_write(
    files: dict[str, bytes],
    lang: str,
    kept: dict,
    destination,
    mine: bool = False,
    alone: Collection[str] = (),
) -> dict[str, str]:
    """Write the files in this language's own folders and those only it makes (`alone`: its
    search index), and all of them when they are `mine` (the record's downloads, made by one
    language only); keep the rest (files every language makes, such as scripts, go back to the
    one process that writes them)."""
    if destination is None:
        kept.update(files)
        return {}
    own = files if mine else {path: data for path, data in files.items() if owned(path, lang, alone)}
    merge_same(kept, {path: data for path, data in files.items() if path not in own})
    return put_files(own, destination.staging, destination.out, destination.previous, destination.held)


def language_units(kinds: tuple[Kind, ...], theme: Theme, run: Run, t: Strings):
    """(key, report or None, function making {path: bytes} of one page and the files made
    with it), unit by unit, kind by kind (render/kinds.py); nothing is made until the function
    is called."""
    for kind in kinds:
        if kind.units is None or kind.render is None:
            continue  # made with another kind's page, or once for every language
        for key, report, args in kind.units(run):
            yield key, report, partial(kind.render, theme, run.site, run.lang, t, *args)
