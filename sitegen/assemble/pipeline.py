"""The whole build: load, derive, render, write. Each stage is one call.

A build that nothing changed since the last one stops after hashing its inputs, before it
imports anything that renders; otherwise the site is loaded, the pages whose inputs changed
are rendered (rendering.py) into a staging folder, and the folder is swapped in whole at the
end (write.commit), or removed when anything failed (write.abort)."""

from __future__ import annotations

import errno
import gc
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sitegen.assemble import outdir
from sitegen.assemble.manifest import (
    forget,
    load_manifest,
    output_key,
    output_state,
    save_manifest,
    scan_beside,
    shared_inputs,
    state_beside,
)
from sitegen.assemble.state import INDEX, current_values, next_state, stale_units
from sitegen.assemble.state_store import load_state, save_state
from sitegen.base import paths
from sitegen.base.cache import BodyCache, code_digest, data_digest, digest_of, scan_tree
from sitegen.base.store import Store
from sitegen.content import record_lock

if TYPE_CHECKING:
    from sitegen.assemble.words import KnownClaims


@dataclass
class BuildReport:
    pages: int = 0
    files: int = 0
    warnings: list = field(default_factory=list)
    seconds: float = 0.0
    skipped: bool = False  # nothing changed since the last build of this output
    bodies_reused: int = 0
    bodies_rendered: int = 0
    units_reused: int = 0  # pages (with the files made with them) taken as they were
    units_rendered: int = 0
    # work done beside the store, counted where it is done (Store.work, sent back by forked
    # processes): vl-convert's drawings, and the templates compiled and loaded (each template
    # an environment uses is loaded once, from the store or compiled)
    charts_drawn: int = 0
    templates_compiled: int = 0
    templates_loaded: int = 0


def build(
    content: Path, templates: Path, out: Path, *, cache: Path, strict: bool = False, processes: bool = True
) -> BuildReport:
    """Build `out` from `content`; when nothing that shapes the output changed since the last
    build of `out`, and `out` is as that build left it, do nothing. `processes=False`: render
    in this process only (serve, whose threads run beside its builds). `cache`: the folder of
    the build's store (base/store.py).

    `out` must be the generator's to replace (outdir.guard: checked before anything is made);
    one build at a time writes it, and staging folders of a killed build are removed first."""
    started = time.perf_counter()
    repos = [r for r in {*paths.protected(), outdir.repository_of(content)} if r is not None]
    out = outdir.guard(out, content=content, templates=templates, repos=repos, cache=cache)
    _cache_is_a_folder(cache)
    store = Store(cache)
    with outdir.BuildLock(out), record_lock.reading(content), _collected_after():
        outdir.remove_leftovers(out)
        try:
            report = _build_locked(store, content, templates, out, strict, processes)
        finally:
            store.close()
    report.seconds = time.perf_counter() - started
    return report


def _cache_is_a_folder(cache: Path) -> None:
    """A cache path that is a file fails the build at once, naming it (deep in the build its
    folders' creation said 'File exists' of the cache's path)."""
    if cache.exists() and not cache.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(cache))


# The cycle collector's first threshold while a build runs (Python's default: 700 new
# objects). Loading a whole record allocates millions of objects that live until the build
# ends, and each collection walks the young ones again: at 700 the collections took about
# 0.1 s of a result edit (by hand, three alternating runs). At most this many objects wait
# for a collection, a few MB.
GC_THRESHOLD = 50_000


@contextmanager
def _collected_after():
    """Python's cycle collector runs less often while a build runs (GC_THRESHOLD) and leaves
    alone what exists when a build has loaded its site and its last state (gc.freeze: they
    live until the build ends; each full collection walked all of them, 0.17 s of a report
    edit, and a forked language process inherits them untouched); afterwards all of it is
    collected as usual (serve builds again and again)."""
    before = gc.get_threshold()
    gc.set_threshold(GC_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def _build_locked(
    store: Store, content: Path, templates: Path, out: Path, strict: bool, processes: bool = True
) -> BuildReport:
    """The build, holding the output's lock: nothing at all when the inputs and the output are
    as the last build left them; else load, render and publish, then save what it read."""
    code = code_digest(store)
    tree = scan_tree(content, templates, store=store)  # the inputs, digested once for the whole build
    inputs = digest_of(tree, extra=code + str(strict))
    manifest = load_manifest(store, out)
    bodies = BodyCache(store, data_digest(content, code, store, tree))  # report bodies of this data
    load = partial(_load, store, content, templates, out, strict, processes, code, tree, manifest, bodies)
    if manifest and manifest.inputs != inputs and scan_beside(out, len(manifest.files), processes):
        store.release()  # the process beside opens its own connection: it prunes the bodies
        before, loaded = state_beside(out, load, bodies.prune)  # the output, scanned once, beside
        loaded.pruned = True
    else:
        before = output_state(out) if manifest and out.is_dir() else {}  # the output, scanned once
        if manifest and manifest.inputs == inputs and out.is_dir() and before == manifest.state:
            return BuildReport(
                pages=sum(1 for p in manifest.files if p.endswith(".html")),
                files=len(manifest.files),
                skipped=True,
            )
        loaded = load()
    loaded.before, loaded.unchanged = before, _unchanged_since(manifest, before)
    gc.freeze()  # until the build ends (_collected_after)
    store.release()  # each forked process opens its own connection
    rendered, previous = _publish(loaded, out, strict)
    unsaved = _save(store, loaded, out, inputs, rendered, previous)
    return BuildReport(
        pages=sum(1 for p in rendered.files if p.endswith(".html")),
        files=len(rendered.files),
        warnings=loaded.site.warnings + unsaved,
        bodies_reused=loaded.cache.hits,
        bodies_rendered=loaded.cache.misses,
        units_reused=_count(rendered.units, False),
        units_rendered=_count(rendered.units, True),
        charts_drawn=store.work["charts drawn"],
        templates_compiled=store.work["templates compiled"],
        templates_loaded=store.work["templates loaded"],
    )


@dataclass
class _Loaded:
    """What a build renders from: the site and its model, and what the last build left."""

    site: Any
    model: Any
    theme: Any  # the build's one Jinja environment (render/theme.py Theme)
    processes: bool  # render in processes of its own where the site is big enough
    forks: bool  # and it is: the work beside the rendering forks too
    cache: Any  # BodyCache: report bodies made from the same data
    value: Any  # value(tag, key) of a dependency now (state.current_values)
    shared: str  # what every page depends on (manifest.shared_inputs)
    state: Any  # what each unit of the last build read (state.State), or None
    unchanged: dict[str, str]  # files of the last build still as it left them
    before: dict[str, list[int]]  # the output's state when the build began (manifest.output_state)
    claims: KnownClaims  # the claim words the last build found in each text
    pruned: bool = False  # the bodies of other data dropped already (beside the load)


@dataclass
class _Rendered:
    reuse: Any  # rendering.Reuse, or None when nothing was reused
    files: dict[str, str]  # output path -> sha256
    units: dict  # unit key -> (state.Unit, rendered now)
    claims: tuple | None = None  # texts whose claim words were taken, and found now (words.py)
    untouched: dict = field(default_factory=dict)  # files that are the output's as it was scanned
    shared: int = 0  # files that are the output's (its inodes) as the build began
    rows: list = field(default_factory=list)  # the words' warnings found beside, as rows (_words_said)
    said: int = 0  # where they go among the site's warnings


def _load(store, content, templates, out, strict, processes, code, tree, manifest, bodies) -> _Loaded:
    """The site, loaded and checked (the editors' words after it: _publish), with its model;
    what the last build left on disk is the caller's to fill in (unchanged, before)."""
    # what renders (nh3, lxml with it) is imported only now, and here, before any process
    # forks: each language's process imported them again (0.3 s of CPU each); Markdown where a
    # converter is made (markup.new_markdown), uuid where a feed is (render/feed.py)
    from sitegen.assemble.rendering import in_processes, load_site_theme
    from sitegen.assemble.state import resolve
    from sitegen.assemble.words import load_claims
    from sitegen.content.load import load_site
    from sitegen.derive import model as derive_model
    from sitegen.render.theme import theme_dependency

    # the editors' words are checked after the load (with --strict, by the load itself)
    site = load_site(content, strict=strict, words=strict, store=store, tree=tree)
    model = derive_model.build(site)  # once, in this process: every forked language reads it
    theme = load_site_theme(site, templates)  # the build's one Jinja environment
    return _Loaded(
        site,
        model,
        theme,
        processes,
        processes and in_processes(site),
        bodies,
        current_values(partial(resolve, site), partial(theme_dependency, theme)),
        shared_inputs(content, templates, code, strict),
        load_state(store, output_key(out)) if manifest else None,
        {},
        {},
        load_claims(store, output_key(out), code),
    )


def _unchanged_since(manifest, before: dict) -> dict[str, str]:
    """Files of the last build still on disk exactly as it left them (`before`: the output's
    state now): only these may be reused."""
    if not manifest:
        return {}
    return {
        path: sha
        for path, sha in manifest.files.items()
        if path in before and before[path] == manifest.state.get(path)
    }


def _render(loaded: _Loaded, out: Path, staging) -> _Rendered:
    """The site rendered into the staging folder (write.Staging), reusing the last build's
    units that read nothing that changed since; the files it held and the build did not put
    are removed."""
    from sitegen.assemble.rendering import Destination, Reuse, render_site
    from sitegen.assemble.spare import trim

    state = loaded.state
    reuse = (
        Reuse(state, *stale_units(state, loaded.value, loaded.cache.data_key))
        if state is not None and state.inputs == loaded.shared
        else None
    )
    destination = Destination(staging.folder, out, loaded.unchanged, reuse, staging.held)
    files = render_site(
        loaded.site, loaded.theme, loaded.model, loaded.cache, destination, processes=loaded.processes
    )
    trim(staging.folder, staging.held.paths, files)  # what it held and did not put
    shared = [p for p in staging.held.paths if p in files and p not in destination.touched]
    linked = set(staging.linked)  # linked after the scan: its ctime moved
    untouched = {p: loaded.before[p] for p in shared if p not in linked}
    return _Rendered(reuse, files, destination.units, untouched=untouched, shared=len(shared))


def _publish(loaded: _Loaded, out: Path, strict: bool) -> tuple[_Rendered, Path | None]:
    """Render, check the editors' words (on a big site, in a forked process beside the
    rendering), and swap the new output in: (what was rendered, the previous tree to remove)."""
    from sitegen.assemble import forking
    from sitegen.assemble.write import commit, staged
    from sitegen.base.errors import ContentError, from_rows

    site = loaded.site
    said = len(site.warnings)
    keep = {path: loaded.before[path][3] for path in loaded.unchanged}  # path -> inode
    with staged(out, keep) as staging:
        render, check = partial(_render, loaded, out, staging), partial(_words, site, loaded.claims)
        if loaded.forks and not strict:
            (rows, claims), rendered = forking.beside(partial(_words, site, loaded.claims, rows=True), render)
            _errors_raised(from_rows(rows) if any(not row[3] for row in rows) else [])  # row[3]: a warning
            words, rendered.rows, rendered.said = [], rows, said
        else:  # before rendering, as a load would say them (with --strict, the load did)
            words, claims = ([], None) if strict else check()
            _errors_raised(words)
            rendered = render()
        rendered.claims = claims
        site.warnings = [*site.warnings[:said], *words, *site.warnings[said:]]  # as a load says them
        if strict and site.warnings:
            raise ContentError(site.warnings)
        return rendered, commit(staging.folder, out)


def _save(store: Store, loaded: _Loaded, out: Path, inputs: str, rendered: _Rendered, previous) -> list[str]:
    """Keep the previous tree as the spare or remove it, and save what this build read and
    wrote; warnings for what could not be saved (the site is published: the cache may fail
    now). The units' state is saved in a forked process while this one removes the previous
    tree and then saves the manifest (after the removal: unlinking the previous tree's hard
    links changes the ctime of the files they share with this output, and the manifest records
    the output's state). A spare kept, nothing is unlinked: the state of the files that are
    the output's as scanned is the scan's, and only the others are stat'ed; none kept, a big
    site's new output is linked as the spare (spare.make)."""
    from sitegen.assemble import forking, spare
    from sitegen.assemble.manifest import state_of
    from sitegen.assemble.outdir import MARKER
    from sitegen.assemble.words import save_claims
    from sitegen.assemble.write import remove_previous, removing

    key = output_key(out)
    state = None
    if spare.kept_as_spare(previous, out, len(loaded.before), rendered.shared):
        previous, state = None, state_of(out, [*rendered.files, MARKER], rendered.untouched)

    def save_units() -> list[str]:
        return _saved(lambda: save_state(store, key, _next_state(loaded, rendered)))

    def save_kept() -> None:  # neither fails: the claim words found; bodies of other data dropped
        if rendered.claims is not None:
            save_claims(store, key, loaded.claims, *rendered.claims)
        if not loaded.pruned:
            loaded.cache.prune()

    def remove_then_save() -> list[str]:
        remove_previous(previous)
        spare.make(out, [*rendered.files, MARKER])  # when none was kept: before the state's scan
        _words_said(loaded.site, rendered)  # while the state is saved beside
        unsaved = _saved(lambda: save_manifest(store, out, inputs, rendered.files, state))
        save_kept()  # here, not beside: the state's process is the longer (0.01 s of a report edit)
        return unsaved

    if loaded.forks:
        store.release()
        units_unsaved, output_unsaved = forking.beside(save_units, remove_then_save)
        unsaved = [*units_unsaved, *output_unsaved]
    else:  # a small site, or serve's threads run: the removal overlaps saving the state
        removal = removing(previous)
        try:
            unsaved = save_units()
        finally:
            removal.join()
        unsaved += _saved(lambda: save_manifest(store, out, inputs, rendered.files, state))
        save_kept()
        _words_said(loaded.site, rendered)
    if unsaved:
        forget(store, out)
    return unsaved


def _words_said(site, rendered: _Rendered) -> None:
    """The warnings of the words checked beside the rendering, made Problems among the site's
    where a load says them: while the state is saved (24,000 of them took 0.011 s before)."""
    from sitegen.base.errors import from_rows

    if rendered.rows:
        site.warnings[rendered.said : rendered.said], rendered.rows = from_rows(rendered.rows), []


def _words(site, claims: KnownClaims, rows: bool = False) -> tuple[list, tuple]:
    """(the problems of the editors' words, what the check took from the last build and found
    now: KnownClaims.changes, sent back from a forked process); `rows`: the problems as
    errors.as_rows, for a forked process to send."""
    from sitegen.base.errors import as_rows
    from sitegen.content.load import check_words

    problems = check_words(site, claims)
    return as_rows(problems) if rows else problems, claims.changes()


def _next_state(loaded: _Loaded, rendered: _Rendered):
    """This build's state."""
    reuse = rendered.reuse
    state, hashes, whole = (reuse.state, reuse.hashes, reuse.whole) if reuse else (None, None, None)
    return next_state(
        loaded.shared, state, hashes, whole, rendered.units, loaded.value, loaded.cache.data_key
    )


def _count(units: dict, fresh: bool) -> int:
    """The units rendered now (`fresh`) or reused, the languages' search indexes (an entry
    script and its shards, each a unit) left out: made from the other units (end_units.py)."""
    return sum(1 for key, (_, made) in units.items() if made == fresh and key[1:2] != (INDEX,))


def _errors_raised(problems: list) -> list:
    """`problems`, when none is an error; else a ContentError with all of them."""
    if any(not problem.warning for problem in problems):
        from sitegen.base.errors import ContentError

        raise ContentError(problems)
    return problems


def _saved(save) -> list[str]:
    """save(); a warning instead of its OSError (a full disk): the output is whole by now."""
    try:
        save()
    except OSError as exc:
        where = exc.filename if exc.filename is not None else "?"
        return [
            f"warning: the build cache was not saved ({where}: {exc.strerror or exc}); "
            "the output is complete, and the next build renders every page again"
        ]
    return []
