"""The derive stage builds one model per build, in the parent process before any language is
forked (derive/model.py, assemble/pipeline.py), and the model refuses to be changed.

The build is made to fork (one process per language, as on a big site) and every construction
of the record's index, of the model and of a claim's check appends the process id to a file:
the forked processes write there too, so a computation made again in a fork is counted."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from sitegen.derive import model

from project import TEMPLATES
from record_sample import write_record_project

ROOT = Path(__file__).resolve().parents[2]


# Run in a fresh interpreter: a test worker that drew a chart before has loaded vl-convert,
# and a process that has cannot fork safely (forking.fork_safe), so the build would not fork.
COUNTING_BUILD = """
import json, os, sys
from pathlib import Path
from sitegen.assemble import forking, rendering
from sitegen.assemble.pipeline import build
from sitegen.content.load import load_site
from sitegen.derive import claims as claim_checks
from sitegen.derive import model, record_index

content, templates, out, log = (Path(a) for a in sys.argv[1:5])
rendering.PARALLEL_MIN_REPORTS = 1  # fork as a big site does
os.cpu_count = lambda: 2

def counting(owner, name):
    original = getattr(owner, name)
    def counted(*args, **kwargs):
        with log.open("a") as written:
            written.write(f"{name} {os.getpid()}\\n")
        return original(*args, **kwargs)
    setattr(owner, name, counted)

claims = len(load_site(content).table("claims"))
forks = rendering.in_processes(load_site(content))
for owner, name in ((record_index.RecordIndex, "__init__"), (model, "build"), (claim_checks, "check_claim")):
    counting(owner, name)
report = build(content, templates, out, cache=Path(os.environ["SITEGEN_CACHE"]))
print(json.dumps({"claims": claims, "forks": forks, "pages": report.pages, "pid": os.getpid(),
                  "drawn": report.charts_drawn, "compiled": report.templates_compiled}))
"""


def test_a_forked_build_derives_once_in_the_parent(tmp_path):
    content = write_record_project(tmp_path / "site")
    log = tmp_path / "calls.txt"
    done = subprocess.run(
        [sys.executable, "-c", COUNTING_BUILD, str(content), str(TEMPLATES), str(tmp_path / "out"), str(log)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "SITEGEN_CACHE": str(tmp_path / "cache")},
        check=True,
    )
    facts = json.loads(done.stdout.splitlines()[-1])
    lines = log.read_text().splitlines()
    names = [line.split()[0] for line in lines]
    assert facts["forks"] and facts["pages"] > 0  # the build ran its languages in processes
    assert names.count("build") == 1
    assert names.count("__init__") == 1  # the record index
    assert names.count("check_claim") == facts["claims"]  # each claim once
    assert {line.split()[1] for line in lines} == {str(facts["pid"])}  # all in the parent
    # the work of the language processes is sent back to the build's report: each drawing and
    # each compiled template the (empty) store now keeps was made in one of them
    with sqlite3.connect(tmp_path / "cache" / "store.sqlite") as db:
        drawings = [key for (key,) in db.execute("SELECT key FROM charts") if key.endswith(".svg")]
        (templates,) = db.execute("SELECT COUNT(*) FROM templates").fetchone()
    assert facts["drawn"] == len(drawings) > 0
    assert facts["compiled"] >= templates > 10  # a template may be compiled in two processes at once


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
