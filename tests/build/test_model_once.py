"""The derive stage builds one model per build, in the parent process before any language is
forked (derive/model.py, build/pipeline.py), and the model refuses to be changed.

The build is made to fork (one process per language, as on a big site) and every construction
of the record's index, of the model and of a claim's check appends the process id to a file:
the forked processes write there too, so a computation made again in a fork is counted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sitegen.build import forking, rendering
from sitegen.build.pipeline import build
from sitegen.content.load import load_site
from sitegen.derive import figures, model, record_index

from project import TEMPLATES
from record_sample import write_record_project


def _counting(monkeypatch, log: Path, owner, name: str) -> None:
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        with log.open("a") as out:
            out.write(f"{name} {os.getpid()}\n")
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


@pytest.mark.skipif(not forking.fork_safe(), reason="the build forks only where fork is safe")
def test_a_forked_build_derives_once_in_the_parent(tmp_path, monkeypatch):
    log = tmp_path / "calls.txt"
    monkeypatch.setattr(rendering, "PARALLEL_MIN_REPORTS", 1)  # fork as a big site does
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    _counting(monkeypatch, log, record_index.RecordIndex, "__init__")
    _counting(monkeypatch, log, model, "build")
    _counting(monkeypatch, log, figures, "check_claim")
    content = write_record_project(tmp_path / "site")
    claims = len(load_site(content).table("claims"))
    log.unlink(missing_ok=True)  # what loading here counted

    report = build(content, TEMPLATES, tmp_path / "out")

    lines = log.read_text().splitlines()
    pids = {line.split()[1] for line in lines}
    assert report.pages > 0
    assert [line.split()[0] for line in lines].count("build") == 1
    assert [line.split()[0] for line in lines].count("__init__") == 1  # the record index
    assert [line.split()[0] for line in lines].count("check_claim") == claims  # each claim once
    assert pids == {str(os.getpid())}  # all of it in the parent: no language process derived


def test_the_model_refuses_writes(shipped_content):
    built = model.build(shipped_content)
    key = next(iter(built.headlines))
    with pytest.raises(TypeError, match="read-only"):
        built.headlines[key] = None
    with pytest.raises(TypeError, match="read-only"):
        built.work.pop(next(iter(built.work)))
    with pytest.raises(TypeError, match="read-only"):
        built.series.append(None)
    with pytest.raises(AttributeError):
        built.latest_round = "v0.5"  # a frozen dataclass
