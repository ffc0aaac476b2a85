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

from sitegen.assemble import outdir
from sitegen.assemble.manifest import forget, load_manifest, output_key, output_state, save_manifest
from sitegen.assemble.state import current_values, load_state, next_state, save_state, stale_units
from sitegen.base import paths
from sitegen.base.cache import code_digest, sha, tree_digest
from sitegen.base.store import Store
from sitegen.content import record_lock


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


def _unchanged_since(manifest, out: Path) -> dict[str, str]:
    """Files of the last build still on disk exactly as it left them: only these may be reused."""
    if not manifest or not out.is_dir():
        return {}
    state = output_state(out)
    return {
        path: sha
        for path, sha in manifest.files.items()
        if path in state and state[path] == manifest.state.get(path)
    }


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
    code = code_digest(store)
    inputs = tree_digest(content, templates, extra=code + str(strict), store=store)
    manifest = load_manifest(store, out)
    if manifest and manifest.inputs == inputs and out.is_dir() and output_state(out) == manifest.state:
        return BuildReport(
            pages=sum(1 for p in manifest.files if p.endswith(".html")),
            files=len(manifest.files),
            skipped=True,
        )
    from sitegen.assemble import forking
    from sitegen.assemble.rendering import (
        BodyCache,
        Destination,
        Reuse,
        data_digest,
        in_processes,
        load_site_theme,
        render_site,
    )
    from sitegen.assemble.state import resolve
    from sitegen.assemble.write import commit, remove_previous, removing, staged
    from sitegen.base.errors import ContentError  # what renders is imported only now
    from sitegen.content.load import check_words, load_site
    from sitegen.derive import model as derive_model
    from sitegen.render.theme import theme_dependency

    # the editors' words are checked after the load (with --strict, by the load itself); on a
    # big site, in a forked process beside the rest of the build
    site = load_site(content, strict=strict, words=strict, store=store)
    forks = processes and in_processes(site)
    model = derive_model.build(site)  # once, in this process: every forked language reads it
    cache = BodyCache(store, data_digest(content, code, store))
    theme = load_site_theme(site, templates)  # the build's one Jinja environment
    value = current_values(partial(resolve, site), partial(theme_dependency, theme))
    shared = _shared_inputs(content, templates, code, strict)
    state = load_state(store, output_key(out)) if manifest else None
    gc.freeze()  # until the build ends (_collected_after)

    def render(staging: Path) -> tuple[Reuse | None, dict, dict]:
        """(what may be reused, the files, what each unit read), rendered into the staging folder."""
        reuse = (
            Reuse(state, *stale_units(state, value)) if state is not None and state.inputs == shared else None
        )
        destination = Destination(staging, out, _unchanged_since(manifest, out), reuse)
        files = render_site(site, theme, model, cache, destination, processes=processes)
        return reuse, files, destination.units

    loaded = len(site.warnings)
    store.release()  # each forked process opens its own connection
    with staged(out) as staging:
        if forks and not strict:
            words, (reuse, files, units) = forking.beside(
                partial(check_words, site), partial(render, staging)
            )
            _errors_raised(words)
        else:  # before rendering, as a load would say them
            words = [] if strict else _errors_raised(check_words(site))
            reuse, files, units = render(staging)
        site.warnings = [*site.warnings[:loaded], *words, *site.warnings[loaded:]]  # as a load says them
        if strict and site.warnings:
            raise ContentError(site.warnings)
        previous = commit(staging, out)
    # the site is published: the cache may fail now. The units' state is saved in a forked
    # process while this one removes the previous tree and then saves the manifest (after the
    # removal: unlinking the previous tree's hard links changes the ctime of the files they
    # share with this output, and the manifest records the output's state)

    def save_units() -> list[str]:
        return _saved(
            lambda: save_state(
                store,
                output_key(out),
                next_state(
                    shared,
                    reuse.state if reuse else None,
                    reuse.hashes if reuse else None,
                    reuse.whole if reuse else None,
                    units,
                    value,
                ),
            )
        )

    def save_manifest_now() -> list[str]:
        return _saved(lambda: save_manifest(store, out, inputs, files))

    if forks:

        def remove_then_save() -> list[str]:
            remove_previous(previous)
            return save_manifest_now()

        store.release()
        units_unsaved, output_unsaved = forking.beside(save_units, remove_then_save)
        unsaved = [*units_unsaved, *output_unsaved]
    else:  # a small site, or serve's threads run: the removal overlaps saving the state
        removal = removing(previous)
        try:
            unsaved = save_units()
        finally:
            removal.join()
        unsaved += save_manifest_now()
    if unsaved:
        forget(store, out)
    return BuildReport(
        pages=sum(1 for p in files if p.endswith(".html")),
        files=len(files),
        warnings=site.warnings + unsaved,
        bodies_reused=cache.hits,
        bodies_rendered=cache.misses,
        units_reused=sum(1 for _, fresh in units.values() if not fresh),
        units_rendered=sum(1 for _, fresh in units.values() if fresh),
    )


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


def _shared_inputs(content: Path, templates: Path, code: str, strict: bool) -> str:
    """What every page depends on without noting it: the generator's code and libraries, the
    site's configuration (site.yaml: languages, title, base URL), the list of mainland usage
    every zh-Hant page is checked against, and where the inputs are."""
    from sitegen.content.usage import USAGE

    config, usage = content / "site.yaml", content / USAGE
    return sha(
        "\0".join(
            [
                code,
                str(strict),
                str(content.resolve()),
                str(templates.resolve()),
                config.read_bytes().hex() if config.is_file() else "",
                usage.read_bytes().hex() if usage.is_file() else "",  # the check of every zh-Hant page
            ]
        ).encode()
    )
