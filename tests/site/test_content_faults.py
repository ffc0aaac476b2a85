"""Issue 18, content files, numbers and warnings: every case of bad input or fault gives exactly
its messages (file:line), the exit code, and leaves the previous output and every content file
byte for byte as they were. The good site is built once; each case gets a copy of its output."""

from __future__ import annotations

import os
import re
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import build
from sitegen.importer import small_record

from project import (
    BENCHMARKS,
    CLAIMS,
    FILES,
    GLOSSARY,
    OFFICIAL,
    R_ACME,
    REPORT_EN,
    RESULTS,
    RESULTS_FILE,
    SITE,
    SOURCES,
    SYSTEMS,
    write_project,
)
from record_sample import V10, write_record_project
from shared_sites import copy_store

R = "content/reports/acme-vs-zenith.en.md"
RECORD_ACME = "v1.0-acme-acme16-bert"
# with the record, a results block names its systems (the round's whole list is its leaderboard)
RECORD_REPORT_EN = REPORT_EN
RESNET = """\
- id: resnet
  name: {en: ResNet-50, zh: ResNet-50}
  task: {en: Vision, zh: 视觉}
  dataset: ImageNet
  quality_target: {en: 75.9% top-1, zh: Top-1 75.9%}
  metric: time_to_train
  unit: min
  lower_is_better: true
"""
# Acme's result on ResNet-50: the same system folder, runs and score (30.0) as r-acme's
R_RESNET = small_record.result_text(
    {
        **R_ACME,
        "id": "r-res",
        "benchmark": "resnet",
        "benchmark_folder": "resnet",
        "path": "Acme/results/acme16/resnet",
    }
)


def snapshot(folder: Path) -> dict[str, str]:
    """Every entry under `folder` by its kind and bytes; FIFOs, devices and links are never
    opened (a FIFO would block, /dev/zero never ends)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode):
            found[rel] = "link:" + os.readlink(path)
        elif stat.S_ISREG(mode):
            found[rel] = (
                path.read_bytes().hex() if path.stat().st_size < 1 << 20 else f"big:{path.stat().st_size}"
            )
        else:
            found[rel] = f"mode:{stat.S_IFMT(mode)}"
    return found


@dataclass
class Case:
    changes: dict = field(default_factory=dict)
    expected: list | Callable = field(default_factory=list)  # problem lines, in order
    setup: Callable | None = None  # setup(content): what text cannot express
    record: bool = False  # the project with the whole-record layout
    args: tuple = ()
    code: int = 1


def report(text_from: str, text_to: str, source: str = REPORT_EN) -> dict:
    assert text_from in source
    return {"reports/acme-vs-zenith.en.md": source.replace(text_from, text_to)}


def appended(extra: str) -> dict:
    return {"reports/acme-vs-zenith.en.md": REPORT_EN + extra}


def i18n_edit(lang: str, key: str, old: str, new: str, extra: str = ""):
    def setup(content: Path):
        path = content / "i18n" / f"{lang}.yaml"
        lines = path.read_text("utf-8").splitlines(True)
        at = next(n for n, line in enumerate(lines) if line.startswith(key + ":"))
        lines[at] = lines[at].replace(old, new)
        path.write_text("".join(lines) + extra, "utf-8")
        return at + 1, len(lines) + 1

    return setup


def fifo(content: Path):
    os.mkfifo(content / "reports" / "pipe.en.md")


def device(content: Path):
    os.symlink("/dev/zero", content / "reports" / "zero.en.md")


def loop(content: Path):
    os.symlink("loop.en.md", content / "reports" / "loop.en.md")


def huge(content: Path):
    with open(content / "data" / "glossary.yaml", "r+b") as stream:
        stream.truncate(40 * 1024 * 1024)  # sparse: nothing is really written


def image(content: Path):
    (content / "images").mkdir()
    (content / "images" / "chart.png").write_bytes(b"\x89PNG\r\n\x1a\n")


LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8)
)
# 41 more results of Acme's folder on BERT, r-0 .. r-40: runs n minutes slower, scores 30 + n
MANY = "".join(
    small_record.result_text(
        {**R_ACME, "id": f"r-{n}", "value": 30.0 + n, "runs": [run + n for run in R_ACME["runs"]]}
    )
    for n in range(41)
)
# RESULTS, the round file of the tiny project: two header lines, then r-acme from line 3
# (framework on 17, status 18, value 19, unit 20, runs 22) and r-zenith from line 27 (status 42)
D = "content/data/record/results-v1.0.yaml"
PENDING = REPORT_EN.replace("claims: [c-ppr]", "claims: [c-ppr]\npending: [zh]")

CASES = {
    # --- line endings, byte-order mark, bytes that are not UTF-8, control characters ---------
    "crlf-report-block": Case(
        report("round: v1.0", "round: v9.9", REPORT_EN.replace("\n", "\r\n")),
        [f"{R}:14: results block: the selection matches no result"],
    ),
    "cr-only-data": Case(
        {
            RESULTS_FILE: RESULTS.replace("ZenTorch\n  status: scored", "ZenTorch\n  status: done").replace(
                "\n", "\r"
            )
        },
        [f"{D}:42: record 'r-zenith': field 'status': 'done' is not one of: scored, logs missing"],
    ),
    "bom-crlf-data": Case(
        {
            "data/systems.yaml": "\ufeff"
            + SYSTEMS.replace("accelerator_count: 16", "accelerator_count: sixteen").replace("\n", "\r\n")
        },
        [
            "content/data/systems.yaml:7: record 'acme-16': field 'accelerator_count': 'sixteen' is not a number"
        ],
    ),
    "latin1-byte-report": Case(
        {
            "reports/acme-vs-zenith.en.md": REPORT_EN.replace("Acme trains", "Caf\xe9 trains").encode(
                "latin-1"
            )
        },
        [f"{R}:12: byte 0xe9 (column 4) is not UTF-8; save the file as UTF-8"],
    ),
    "latin1-byte-data": Case(
        {RESULTS_FILE: RESULTS.replace("AcmeFlow", "AcmeFl\xf6w").encode("latin-1")},
        [f"{D}:17: byte 0xf6 (column 20) is not UTF-8; save the file as UTF-8"],
    ),
    "control-character-raw": Case(
        report("title: Acme against", "title: Acme\x07 against"),
        [f"{R}:2: control character U+0007 (column 12); remove it"],
    ),
    "control-character-escaped": Case(
        report("title: Acme against Zenith", 'title: "Acme\\a against Zenith"'),
        [f"{R}:2: field 'title': control character U+0007 in the text; remove it"],
    ),
    # --- duplicate keys, with both lines ---------------------------------------------------
    "duplicate-key-data": Case(
        {RESULTS_FILE: RESULTS.replace("  value: 30.0\n", "  value: 30.0\n  value: 31.0\n", 1)},
        [f"{D}:20: duplicate key 'value' (first on line 19)"],
    ),
    "duplicate-key-front-matter": Case(
        report(
            "summary: Acme is slower but cheaper.\n",
            "summary: Acme is slower but cheaper.\nsummary: Twice.\n",
        ),
        [f"{R}:5: duplicate key 'summary' (first on line 4)"],
    ),
    "duplicate-key-site": Case(
        {"site.yaml": SITE + "title: {en: Again, zh: 再次}\n"},
        ["content/site.yaml:5: duplicate key 'title' (first on line 1)"],
    ),
    "duplicate-key-block": Case(
        report("round: v1.0\n", "round: v1.0\nround: v1.1\n"),
        [f"{R}:17: results block: duplicate key 'round' (first on line 16)"],
    ),
    "duplicate-key-i18n": Case(
        setup=i18n_edit("en", "nav.home", "", "", "nav.home: Home again\n"),
        expected=lambda lines: [
            f"content/i18n/en.yaml:{lines[1]}: duplicate key 'nav.home' (first on line {lines[0]})"
        ],
    ),
    "duplicate-key-record": Case(
        {"data/record/results-v1.0.yaml": V10.replace("  unit: min\n", "  unit: min\n  unit: min\n", 1)},
        ["content/data/record/results-v1.0.yaml:19: duplicate key 'unit' (first on line 18)"],
        record=True,
    ),
    # --- the field's own line, also after blocks; nearest names ---------------------------------
    "line-after-two-blocks": Case(
        appended(
            "\n```results\nbenchmark: bert\nround: v1.0\nsystems: [acme-16]\n```\n\nLater [[result:r-nobody]].\n"
        ),
        [f"{R}:26: unknown result 'r-nobody' in [[...]]"],
    ),
    "misspelt-field": Case(
        {RESULTS_FILE: RESULTS.replace("  framework: AcmeFlow", "  framwork: AcmeFlow")},
        [f"{D}:17: record 'r-acme': unknown field 'framwork' (did you mean 'framework'?)"],
    ),
    "misspelt-reference-in-data": Case(
        {"data/claims.yaml": CLAIMS.replace("result: r-acme", "result: r-acmee")},
        ["content/data/claims.yaml:9: record 'c-ppr': unknown result 'r-acmee' (did you mean 'r-acme'?)"],
    ),
    "misspelt-reference-in-text": Case(
        report("[[result:r-acme]]", "[[result:r-acm]]"),
        [f"{R}:12: unknown result 'r-acm' in [[...]] (did you mean 'r-acme'?)"],
    ),
    "misspelt-reference-kind": Case(
        report("[[result:r-acme]]", "[[reslt:r-acme]]"),
        [f"{R}:12: unknown data reference [[reslt:...]] (did you mean 'result'?)"],
    ),
    "misspelt-front-matter-id": Case(
        report("systems: [acme-16,", "systems: [acme-61,"),
        [f"{R}:6: front matter 'systems': unknown system 'acme-61' (did you mean 'acme-16'?)"],
    ),
    # --- malformed input of every kind: one clear message, within seconds ------------------------
    "unclosed-reference": Case(
        report("[[result:r-acme]];", "[[result:r-acme;"),
        [
            f"{R}:12: unclosed or malformed data reference '[[result:r-acme; Zenith needs [[result:r': "
            "write [[kind:id]], closed with ']]', without spaces"
        ],
    ),
    # (a typo of a name other strings use: the typo's side alone; tests/site/test_faults.py has more)
    "i18n-placeholder-typo": Case(
        setup=i18n_edit("zh", "ref.result", "{time}", "{tiem}"),
        expected=lambda lines: [
            f"content/i18n/zh.yaml:{lines[0]}: string 'ref.result': "
            "placeholder {tiem} does not match the en text ({details}, {time}) "
            "(did you mean 'time'?)"
        ],
    ),
    "i18n-unbalanced-brace": Case(
        setup=i18n_edit("zh", "ref.result", "{details}", "{details"),
        expected=lambda lines: [
            f"content/i18n/zh.yaml:{lines[0]}: string 'ref.result': "
            "expected '}' before end of string (write {name}, or {{ for a brace)"
        ],
    ),
    "year-as-title": Case(
        report("title: Acme against Zenith", "title: 2021"),
        [
            f"{R}:2: field 'title': expected text, got the number 2021; put it in quotes (\"2021\") if it is meant as text"
        ],
    ),
    "deep-nesting": Case(
        {"data/glossary.yaml": GLOSSARY + "- id: deep\n  term: " + "[" * 100_000 + "]" * 100_000 + "\n"},
        ["content/data/glossary.yaml:5: values nested deeper than 50 levels; flatten the structure"],
    ),
    "billion-laughs": Case(
        {"data/glossary.yaml": LAUGHS},
        [
            "content/data/glossary.yaml:6: the alias *e makes the document expand past 200,000 "
            "values; write the values out instead of repeating anchors"
        ],
    ),
    "huge-file": Case(
        setup=huge,
        expected=[
            "content/data/glossary.yaml: file of 41,943,040 bytes, over the limit "
            "of 33,554,432: is it the right file?"
        ],
    ),
    "fifo": Case(
        setup=fifo,
        expected=[
            "content/reports/pipe.en.md: a named pipe (FIFO), not a file: content files must be plain files"
        ],
    ),
    "device": Case(
        setup=device,
        expected=["content/reports/zero.en.md: a device, not a file: content files must be plain files"],
    ),
    "symlink-loop": Case(
        setup=loop,
        expected=["content/reports/loop.en.md: cannot read file: Too many levels of symbolic links"],
    ),
    "markdown-nested-emphasis": Case(
        appended("\n" + "*" * 5000 + "x" + "*" * 5000 + "\n"),
        [
            f"{R}:10: the text nests too deeply for Markdown (emphasis, quotes or lists "
            "thousands of levels deep); simplify it"
        ],
    ),
    "markdown-brackets": Case(
        appended("\n" + "[" * 20_000 + "x\n"),
        [f"{R}:20: 20000 '[' on one line (at most 200); Markdown would take minutes over them"],
    ),
    "bad-chart-option": Case(
        appended("\n```chart\nbenchmark: bert\nkind: pie\n```\n"),
        [f"{R}:22: chart block: unknown kind 'pie' (known: bars, grouped_bars, lines, scaling)"],
    ),
    # --- pages that would overwrite another; what a report may load --------------------------------
    "slug-index": Case(
        {"reports/index.en.md": REPORT_EN, "reports/index.zh.md": FILES["reports/acme-vs-zenith.zh.md"]},
        [
            "content/reports/index.en.md: the slug 'index' would overwrite the generator's own page en/reports/index.html; rename the file",
            "content/reports/index.zh.md: the slug 'index' would overwrite the generator's own page zh/reports/index.html; rename the file",
        ],
    ),
    "page-slug-glossary": Case(
        {
            "pages/glossary.en.md": FILES["pages/methodology.en.md"],
            "pages/glossary.zh.md": FILES["pages/methodology.zh.md"],
        },
        [
            "content/pages/glossary.en.md: the slug 'glossary' would overwrite the generator's own page en/glossary.html; rename the file",
            "content/pages/glossary.zh.md: the slug 'glossary' would overwrite the generator's own page zh/glossary.html; rename the file",
        ],
    ),
    "system-id-index": Case(
        {"data/systems.yaml": SYSTEMS + SYSTEMS.split("- id: zenith-8")[0].replace("acme-16", "index")},
        [
            "content/data/systems.yaml:21: id 'index' would overwrite the generator's own page systems/index.html; choose another"
        ],
    ),
    "external-image": Case(
        appended("\n![logo](https://example.org/logo.png)\n"),
        [
            f"{R}:20: external image 'https://example.org/logo.png': the site loads nothing from outside; "
            "save the image under content/ and link it relatively"
        ],
    ),
    "external-script": Case(
        appended('\n<script src="https://cdn.example.org/x.js"></script>\n'),
        [f"{R}:20: a script from elsewhere is not allowed in a report; the site loads nothing from outside"],
    ),
    "missing-local-image": Case(
        appended("\n![chart](../images/none.png)\n"),
        setup=image,
        expected=[
            f"{R}:20: image '../images/none.png' does not exist; save it under content/ and link it relatively"
        ],
    ),
    "image-outside-content": Case(
        appended("\n![secret](../../../etc/hostname)\n"),
        [
            f"{R}:20: image '../../../etc/hostname' is outside content/; save it under content/ and link it relatively"
        ],
    ),
    # --- numbers that cannot be real, and numbers their source contradicts --------------------------
    "zero-time": Case(
        {RESULTS_FILE: RESULTS.replace("value: 30.0", "value: 0")},
        [f"{D}:19: record 'r-acme': field 'value': 0 must be greater than zero"],
    ),
    "huge-time": Case(
        {RESULTS_FILE: RESULTS.replace("value: 30.0", "value: 1.0e+300")},
        [f"{D}:19: record 'r-acme': field 'value': 1e+300 is too large to be a real figure"],
    ),
    "years-long-time": Case(
        {RESULTS_FILE: RESULTS.replace("value: 30.0", "value: 3000000")},
        [f"{D}:19: record 'r-acme': field 'value': 3000000 is not a real time to train (over 1,000,000)"],
    ),
    # a tiny figure crashed the number formatter (decimal.InvalidOperation) with a traceback
    "tiny-time": Case(
        {RESULTS_FILE: RESULTS.replace("value: 30.0", "value: 1.0e-30")},
        [f"{D}:19: record 'r-acme': field 'value': 1e-30 is too small to be a real figure"],
    ),
    "sub-millisecond-time": Case(
        {RESULTS_FILE: RESULTS.replace("value: 30.0", "value: 0.0001")},
        [f"{D}:19: record 'r-acme': field 'value': 0.0001 is not a real time to train (under 0.001)"],
    ),
    "tiny-price": Case(
        {"data/systems.yaml": SYSTEMS.replace("amount: 150000", "amount: 1.0e-40")},
        [
            "content/data/systems.yaml:9: record 'acme-16': field 'prices': field 'amount': 1e-40 is too small to be a real figure"
        ],
    ),
    "nan-time": Case(
        {RESULTS_FILE: RESULTS.replace("value: 30.0", "value: .nan")},
        [f"{D}:19: record 'r-acme': field 'value': nan is not a finite number"],
    ),
    "inf-price": Case(
        {"data/systems.yaml": SYSTEMS.replace("amount: 150000", "amount: .inf")},
        [
            "content/data/systems.yaml:9: record 'acme-16': field 'prices': field 'amount': inf is not a finite number"
        ],
    ),
    "negative-run": Case(
        {
            RESULTS_FILE: RESULTS.replace(
                "runs: [29.0, 30.0, 30.0, 30.0, 31.0]", "runs: [29.0, 30.0, 30.0, 30.0, -1]"
            )
        },
        [f"{D}:22: record 'r-acme': field 'runs': -1 must be greater than zero"],
    ),
    "value-contradicts-runs": Case(
        {
            RESULTS_FILE: RESULTS.replace(
                "runs: [29.0, 30.0, 30.0, 30.0, 31.0]", "runs: [29.0, 30.0, 31.0, 32.0, 33.0]"
            )
        },  # the olympic mean of five: (30 + 31 + 32) / 3
        [f"{D}:19: record 'r-acme': value 30 disagrees with its runs: by the rules of v1.0 they give 31.0"],
    ),
    "record-value-contradicts-runs": Case(
        {"data/record/results-v1.0.yaml": V10.replace("value: 30.123456", "value: 31.5")},
        [
            f"content/data/record/results-v1.0.yaml:17: record '{RECORD_ACME}': value 31.5 disagrees with its runs: by the rules of v1.0 they give 30.1"
        ],
        record=True,
    ),
    "record-too-many-failed-runs": Case(
        {
            "data/record/results-v1.0.yaml": V10.replace(
                "[29.5, 30.0, 30.2, 30.17, 31.0]", "[29.5, null, 30.2, null, 31.0]"
            )
        },
        [
            f"content/data/record/results-v1.0.yaml:17: record '{RECORD_ACME}': value 30.1235 but its runs give no score by the rules of v1.0: 2 of 5 runs failed; the round's rules allow 1"
        ],
        record=True,
    ),
    "logs-missing-with-a-value": Case(
        {
            "data/record/results-v1.0.yaml": V10.replace(
                "status: logs missing\n  value: null", "status: logs missing\n  value: 12.5"
            )
        },
        [
            "content/data/record/results-v1.0.yaml:89: record 'v1.0-bigco-giant-resnet': a result with logs missing has no value"
        ],
        record=True,
    ),
    # a record result's error names the line of its field (either reader: the importer's layout
    # is read line by line, any other by yaml), not the result's first line
    "record-field-bad-value": Case(
        {
            "data/record/results-v1.0.yaml": V10.replace(
                "  accelerator_count: 16\n", "  accelerator_count: sixteen\n", 1
            )
        },
        [
            f"content/data/record/results-v1.0.yaml:11: record '{RECORD_ACME}': field 'accelerator_count': 'sixteen' is not a whole number (0, 1, 2, ...)"
        ],
        record=True,
    ),
    "record-field-bad-value-yaml-layout": Case(
        {
            "data/record/results-v1.0.yaml": V10.replace(
                "  accelerator_count: 16\n", "  accelerator_count: sixteen\n", 1
            ).replace(
                "  runs: [29.5, 30.0, 30.2, 30.17, 31.0]\n",
                "  runs:\n    - 29.5\n    - 30.0\n    - 30.2\n    - 30.17\n    - 31.0\n",
            )
        },
        [
            f"content/data/record/results-v1.0.yaml:11: record '{RECORD_ACME}': field 'accelerator_count': 'sixteen' is not a whole number (0, 1, 2, ...)"
        ],
        record=True,
    ),
    "record-field-misspelt": Case(
        {
            "data/record/results-v1.0.yaml": V10.replace(
                "  runs_required: 5\n", "  runs_required: 5\n  runs_requird: 5\n", 1
            )
        },
        [
            f"content/data/record/results-v1.0.yaml:23: record '{RECORD_ACME}': unknown field 'runs_requird' (did you mean 'runs_required'?)"
        ],
        record=True,
    ),
    "record-round-of-another-file": Case(
        {
            "data/record/results-v1.0.yaml": V10.replace(
                f"- id: {RECORD_ACME}\n  round: v1.0\n", f"- id: {RECORD_ACME}\n  round: v1.1\n", 1
            )
        },
        [
            f"content/data/record/results-v1.0.yaml:2: record '{RECORD_ACME}': round 'v1.1' in the file of v1.0"
        ],
        record=True,
    ),
    "record-scored-without-value": Case(
        {"data/record/results-v1.0.yaml": V10.replace("  value: 30.123456\n", "  value: null\n", 1)},
        [f"content/data/record/results-v1.0.yaml:17: record '{RECORD_ACME}': a scored result needs a value"],
        record=True,
    ),
    "logs-missing-in-text": Case(
        {
            "reports/acme-vs-zenith.en.md": RECORD_REPORT_EN.replace("r-acme", RECORD_ACME).replace(
                "[[result:r-zenith]]", "[[result:v1.0-bigco-giant-resnet]]"
            )
        },
        [
            f"{R}:12: result 'v1.0-bigco-giant-resnet' has its logs missing: it has no official time to show in [[...]]"
        ],
        record=True,
    ),
    "ratio-across-benchmarks": Case(
        {
            "data/benchmarks.yaml": BENCHMARKS + RESNET,
            RESULTS_FILE: RESULTS + R_RESNET,
            **appended("\nResNet against BERT: [[speedup:r-res/r-acme]].\n"),
        },
        [
            f"{R}:20: [[speedup:r-res/r-acme]]: 'r-res' is resnet and 'r-acme' is bert; a ratio compares one benchmark"
        ],
    ),
    "ratio-across-divisions": Case(
        {
            "reports/acme-vs-zenith.en.md": RECORD_REPORT_EN.replace("r-acme", RECORD_ACME).replace(
                "r-zenith", "v1.0-zenith-zenith8-bert"
            )
            + f"\nOpen against closed: [[speedup:v1.0-acme-acme16-open-bert/{RECORD_ACME}]].\n"
        },
        [
            f"{R}:20: [[speedup:v1.0-acme-acme16-open-bert/{RECORD_ACME}]]: 'v1.0-acme-acme16-open-bert' is in the open "
            f"division and '{RECORD_ACME}' in the closed; write [[speedup:v1.0-acme-acme16-open-bert/{RECORD_ACME}|cross-division]] "
            "to compare them, and the page says so"
        ],
        record=True,
    ),
    "ratio-unknown-option": Case(
        appended("\nAgain: [[speedup:r-acme/r-zenith|cross-round]].\n"),
        [f"{R}:20: [[speedup:r-acme/r-zenith]]: unknown option 'cross-round' (known: cross-division)"],
    ),
    # --- warnings: --strict makes them fail ---------------------------------------------------------
    "claim-with-an-option": Case(
        appended("\nStated: [[claim:c-ppr|as_stated]].\n"),
        [f"{R}:20: [[claim:c-ppr|as_stated]]: unknown option (known: [[check:ID|as_stated]])"],
    ),
    "strict-pending-translation": Case(
        {"reports/acme-vs-zenith.zh.md": None, "reports/acme-vs-zenith.en.md": PENDING},
        [f"{R}:9: warning: report 'acme-vs-zenith' is not translated into zh yet (pending)"],
        args=("--strict",),
    ),
    "strict-unused-source": Case(
        {
            "data/sources.yaml": SOURCES
            + SOURCES.split("- id: s-official")[0].replace("s-article", "s-unused")
            + OFFICIAL
        },
        [
            "content/data/sources.yaml:16: warning: source 's-unused' is not used: no record, price, claim, report or page cites it"
        ],
        args=("--strict",),
    ),
    "strict-claim-without-source-page": Case(
        {"data/sources.yaml": SOURCES.replace("  url: https://example.org/article\n", "") + OFFICIAL},
        [
            "content/data/claims.yaml:2: warning: claim 'c-ppr' cites source 's-article', which has no url: readers cannot look it up"
            " (give its url, or its date and a no_url saying why there is none)"
        ],
        args=("--strict",),
    ),
    # a reason without a date is no complete citation
    "strict-claim-without-source-page-or-date": Case(
        {
            "data/sources.yaml": SOURCES.replace(
                "  url: https://example.org/article\n", "  no_url: {en: Print only., zh: 仅有印刷版。}\n"
            ).replace("  date: 2021-06-30\n", "", 1)
            + OFFICIAL
        },
        [
            "content/data/claims.yaml:2: warning: claim 'c-ppr' cites source 's-article', which has no url: readers cannot look it up"
            " (give its url, or its date and a no_url saying why there is none)"
        ],
        args=("--strict",),
    ),
    "strict-long-table": Case(
        {RESULTS_FILE: RESULTS + MANY},
        [
            f"{R}:14: warning: results block: 43 rows, more than a reader takes in (40); narrow it with round, division or systems"
        ],
        args=("--strict",),
    ),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory, warm_store):
    """The tiny site and the record-layout site, each built once: (output folder) by layout."""
    root = tmp_path_factory.mktemp("good")
    os.environ["SITEGEN_CACHE"] = str(copy_store(warm_store, root / "cache"))
    outputs = {}
    for record in (False, True):
        content = (write_record_project if record else write_project)(root / f"p{int(record)}")
        outputs[record] = root / f"out{int(record)}"
        assert build.main(["-q", "--content", str(content), "--out", str(outputs[record])]) == 0
    yield outputs
    os.environ.pop("SITEGEN_CACHE", None)


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_more(name, built, tmp_path, capsys, monkeypatch, warm_cache):
    case = CASES[name]
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content = (write_record_project if case.record else write_project)(tmp_path, case.changes)
    lines = case.setup(content) if case.setup else None
    expected = case.expected(lines) if callable(case.expected) else case.expected
    out = tmp_path / "output"
    shutil.copytree(built[case.record], out, symlinks=True)
    before_out, before_content = snapshot(out), snapshot(content)
    code = build.main(["--content", str(content), "--out", str(out), *case.args])
    err = capsys.readouterr().err.splitlines()
    assert (code, err) == (
        case.code,
        [*expected, f"build failed: {len(expected)} problem(s); output left as it was"],
    )
    assert snapshot(out) == before_out
    assert snapshot(content) == before_content
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".output")]


# --- what must work: read as meant, quoted as written, labelled, copied; check writes nothing ----


def build_ok(tmp_path, changes, *args, record=False, setup=None):
    content = (write_record_project if record else write_project)(tmp_path, changes)
    if setup:
        setup(content)
    out = tmp_path / "output"
    code = build.main(["-q", "--content", str(content), "--out", str(out), *args])
    return code, out, content


@pytest.fixture
def own_cache(tmp_path, monkeypatch, warm_cache):
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    return tmp_path / "cache"


def body_of(out: Path, lang: str = "en") -> str:
    page = (out / lang / "reports" / "acme-vs-zenith.html").read_text("utf-8")
    return page.split('<div class="body">', 1)[1].split('<section class="report-claims"', 1)[0]


@pytest.mark.parametrize("ending", ["\r\n", "\r"])
def test_windows_and_old_mac_line_endings_with_a_bom_publish_the_blocks(tmp_path, own_cache, ending):
    text = "\ufeff" + REPORT_EN.replace("\n", ending)
    code, out, _ = build_ok(
        tmp_path, {"reports/acme-vs-zenith.en.md": text, RESULTS_FILE: RESULTS.replace("\n", ending)}
    )
    assert code == 0
    body = body_of(out)
    assert '<table class="data sortable results">' in body and "benchmark: bert" not in body
    assert "Acme against Zenith</h1>" in (out / "en/reports/acme-vs-zenith.html").read_text("utf-8")


def test_a_report_can_quote_the_generators_placeholders(tmp_path, own_cache):
    quoted = (
        "\nLiteral: zzq0qzz, zq0x0zq0x, zq1x1zq1x, zq0&#120;0zq0x and zq9x99zq9x stay as written; "
        "[[result:r-zenith]] is still a figure.\n"
    )
    code, out, _ = build_ok(tmp_path, appended(quoted))
    assert code == 0
    body = body_of(out)
    assert "Literal: zzq0qzz, zq0x0zq0x, zq1x1zq1x, zq0x0zq0x and zq9x99zq9x stay as written;" in body
    assert body.count("20.0 min</a>") == 2 and body.count("30.0 min</a>") == 1


def test_a_declared_cross_division_ratio_is_labelled(tmp_path, own_cache):
    text = (
        RECORD_REPORT_EN.replace("r-acme", RECORD_ACME).replace("r-zenith", "v1.0-zenith-zenith8-bert")
        + f"\nOpen against closed: [[speedup:v1.0-acme-acme16-open-bert/{RECORD_ACME}|cross-division]].\n"
    )
    code, out, _ = build_ok(tmp_path, {"reports/acme-vs-zenith.en.md": text}, record=True)
    assert code == 0
    assert (
        '<span class="derived">1.09×</span> <small class="cross-division">(across divisions)</small>'
    ) in body_of(out)


def test_a_local_image_is_copied_and_linked_relatively(tmp_path, own_cache):
    code, out, content = build_ok(tmp_path, appended("\n![A chart](../images/chart.png)\n"), setup=image)
    assert code == 0
    assert (out / "media/images/chart.png").read_bytes() == (content / "images/chart.png").read_bytes()
    assert '<img alt="A chart" src="../../media/images/chart.png">' in body_of(out)


def test_a_check_at_the_claims_precision_sits_beside_the_claim(tmp_path, own_cache):
    """The logs' 1.33× (20 min × $300,000 over 30 min × $150,000) is 1.3× at the one decimal
    the claim was stated with; [[check:...]] alone keeps three significant digits."""
    text = "\nRecomputed [[check:c-ppr]], at the stated precision [[check:c-ppr|as_stated]], stated [[claim:c-ppr]].\n"
    code, out, _ = build_ok(tmp_path, appended(text), "--strict")
    assert code == 0
    body = body_of(out)
    assert re.search(
        r"Recomputed <a [^>]*>1\.33×</a>, at the stated precision <a [^>]*>1\.3×</a>, "
        r"stated <a [^>]*>1\.3×</a>",
        body,
    )


def test_a_source_without_an_address_says_why_on_the_sources_page(tmp_path, own_cache, capsys):
    sources = (
        SOURCES.replace(
            "  url: https://example.org/article\n",
            "  no_url: {en: Printed in the March issue only., zh: 仅见于三月刊印刷版。}\n",
        )
        + OFFICIAL
    )
    code, out, _ = build_ok(tmp_path, {"data/sources.yaml": sources}, "--strict")
    assert (code, capsys.readouterr().err) == (0, "")
    page = (out / "en/sources/index.html").read_text("utf-8")
    assert "<dd>No public address. Printed in the March issue only.</dd>" in page
    assert "<dd>无公开网址。仅见于三月刊印刷版。</dd>" in (out / "zh/sources/index.html").read_text("utf-8")


def test_warnings_are_printed_and_fail_only_with_strict(tmp_path, own_cache, capsys):
    changes = {"reports/acme-vs-zenith.zh.md": None, "reports/acme-vs-zenith.en.md": PENDING}
    code, out, _ = build_ok(tmp_path, changes)
    warning = f"{R}:9: warning: report 'acme-vs-zenith' is not translated into zh yet (pending)"
    assert (code, capsys.readouterr().err.splitlines()) == (0, [warning])
    assert (out / "zh/reports/acme-vs-zenith.html").is_file()


def test_check_reports_warnings_and_errors_and_writes_nothing_anywhere(tmp_path, monkeypatch, capsys):
    """Not the output, not the content, not the cache: nothing under tmp_path changes, with a
    cold cache (none created) and with the warm cache of an earlier build (left as it was)."""
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cache"))
    content = write_project(
        tmp_path,
        {
            "data/sources.yaml": SOURCES
            + SOURCES.split("- id: s-official")[0].replace("s-article", "s-unused")
            + OFFICIAL
        },
    )
    warning = "content/data/sources.yaml:16: warning: source 's-unused' is not used: no record, price, claim, report or page cites it"
    for warm in (False, True):
        if warm:
            assert build.main(["-q", "--content", str(content), "--out", str(tmp_path / "out")]) == 0
            capsys.readouterr()
        before = snapshot(tmp_path)
        assert build.main(["check", "--content", str(content)]) == 0
        captured = capsys.readouterr()
        assert captured.err.splitlines() == [warning]
        assert "nothing written" in captured.out
        assert build.main(["check", "--strict", "--content", str(content)]) == 1
        assert capsys.readouterr().err.splitlines() == [warning, "check failed: 1 problem(s)"]
        assert snapshot(tmp_path) == before
        assert warm or not (tmp_path / "cache").exists()
    (content / "data/systems.yaml").write_text(SYSTEMS.replace("amount: 150000", "amount: 0"), "utf-8")
    before = snapshot(tmp_path)
    assert build.main(["check", "--content", str(content)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        warning,
        "content/data/systems.yaml:9: record 'acme-16': field 'prices': field 'amount': 0 must be greater than zero",
        "check failed: 2 problem(s)",
    ]
    assert snapshot(tmp_path) == before


def test_merge_keys_are_not_duplicates_and_the_shipped_record_loads(shipped_content):
    """YAML merge keys are not duplicate keys; the shipped whole record (which uses none) still
    loads without an error (its speed is the benchmark's, bench/run.py, not a test's)."""
    from sitegen.content.readers import load_yaml

    assert load_yaml("base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\n", with_line=False)["other"] == {
        "x": 1,
        "y": 3,
    }
    assert len(shipped_content.record) >= 2254  # load_site(content/), tests/conftest.py
