"""`axledger init DIR`: a small two-language site to start from, written into DIR/content.

Two vendors, two systems, one benchmark, a record of two results (in the importer's format,
sealed), a claim, a report and a page, in English and Chinese, with the shipped interface
strings: it builds as it is, and every file shows the format (docs/content-format.md describes
each)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from sitegen.base import paths

SITE = """\
title: {en: My Accelerator Ledger, zh: 我的加速器账本}
tagline: {en: Training results and what they cost., zh: 训练成绩与成本。}
languages: [en, zh]
default_language: en
"""

FILES = {
    "site.yaml": SITE,
    "data/sources.yaml": """\
- id: s-article
  kind: article
  title: An example article
  publisher: Example Weekly
  date: 2021-06-30
  language: en
  url: https://example.org/article
  takes: {en: Two figures., zh: 两个数字。}
- id: mlperf-training-v1.0
  kind: official
  title: MLPerf Training v1.0 results
  publisher: MLCommons
  date: 2021-06-30
  language: en
  takes: {en: Result logs., zh: 成绩日志。}
""",
    "data/vendors.yaml": """\
- id: acme
  name: {en: Acme, zh: 艾克米}
  color: "#0072B2"
- id: zenith
  name: {en: Zenith, zh: 天顶}
  color: "#009E73"
""",
    "data/systems.yaml": """\
- id: acme-16
  vendor: acme
  name: {en: Acme 16, zh: Acme 16}
  family: acme
  generation: 1
  accelerator: A1
  accelerator_count: 16
  description: {en: A small example system., zh: 一套小型示例系统。}
  prices:
    - {amount: 150000, currency: USD, basis: estimate, source: s-article}
- id: zenith-8
  vendor: zenith
  name: {en: Zenith 8, zh: Zenith 8}
  family: zenith
  generation: 1
  accelerator: Z1
  accelerator_count: 8
  description: {en: Another example system., zh: 另一套示例系统。}
  prices:
    - {amount: 300000, currency: USD, basis: estimate, source: s-article}
""",
    "data/benchmarks.yaml": """\
- id: bert
  name: {en: BERT-Large, zh: BERT-Large}
  task: {en: Language, zh: 语言}
  dataset: Wikipedia
  quality_target: {en: 0.720 accuracy, zh: 准确率 0.720}
  metric: time_to_train
  unit: min
  lower_is_better: true
""",
    "data/mlperf_systems.yaml": """\
# <round>/<submitter>/<system folder>: <site system id>
v1.0/Acme/acme16: acme-16
v1.0/Zenith/zenith8: zenith-8
""",
    "data/chips.yaml": """\
- vendor: acme
  families:
    - family: A1
      variants:
        - variant: A1
          match: ['acme a1']
- vendor: zenith
  families:
    - family: Z1
      variants:
        - variant: Z1
          match: ['zenith z1']
""",
    "data/claims.yaml": """\
- id: c-ppr
  source: s-article
  figure: 1.3
  unit: x
  stated_as: "1.3x"
  statement: {en: Acme gives more per dollar., zh: Acme 每美元性能更高。}
  measures: {en: Price-performance on BERT., zh: BERT 上的性价比。}
  audited: true
  check: {kind: price_performance, result: r-acme, baseline: r-zenith}
""",
    "data/glossary.yaml": """\
- id: ttt
  term: {en: Time to train, zh: 训练时间}
  definition: {en: Minutes to reach the target., zh: 达到目标所需的分钟数。}
""",
    "reports/acme-vs-zenith.en.md": """\
---
title: Acme against Zenith
date: 2021-07-01
summary: Acme is slower but cheaper.
sources: [s-article, mlperf-training-v1.0]
systems: [acme-16, zenith-8]
benchmarks: [bert]
claims: [c-ppr]
---
## Findings

Acme trains BERT in [[result:r-acme]]; Zenith needs [[result:r-zenith]] [[source:mlperf-training-v1.0]].

```results
benchmark: bert
round: v1.0
systems: [acme-16, zenith-8]
```
""",
    "reports/acme-vs-zenith.zh.md": """\
---
title: Acme 对比 Zenith
date: 2021-07-01
summary: Acme 更慢，但更便宜。
sources: [s-article, mlperf-training-v1.0]
systems: [acme-16, zenith-8]
benchmarks: [bert]
claims: [c-ppr]
---
## 主要发现

Acme 训练 BERT 用时 [[result:r-acme]]，Zenith 用时 [[result:r-zenith]][[source:mlperf-training-v1.0]]。
""",
    # the record's pages link the sections on derived figures (#derived-figures) and on citing
    # a result (#result-ids)
    "pages/methodology.en.md": "---\ntitle: Methodology\nsummary: How numbers are made.\n---\n"
    "## Time to train\n\nText.\n\n## Derived figures {#derived-figures}\n\n"
    "Figures this site works out from the record, such as speed-ups, are not MLPerf® scores.\n\n"
    "## Citing a result {#result-ids}\n\n"
    "MLCommons does not publish result IDs for MLPerf® Training: a citation names the round, division, "
    "benchmark, category, submitter, system and the official folder instead.\n",
    "pages/methodology.zh.md": "---\ntitle: 方法说明\nsummary: 数字从何而来。\n---\n## 训练时间\n\n正文。\n\n"
    "## 派生数据 {#derived-figures}\n\n本站根据记录算出的数字（例如加速比）不是 MLPerf® 成绩。\n\n"
    "## 引用一项成绩 {#result-ids}\n\n"
    "MLCommons没有为MLPerf® Training公布成绩编号：引用时写明轮次、组别、基准测试、类别、提交者、系统与官方成绩目录。\n",
}
GITIGNORE = "/output/\n/.cache/\n"
# The record (content/data/record/, docs/record-format.md): one round of two example results,
# each score the olympic mean of its five runs (the fastest and slowest dropped).
ROUND_ID = "v1.0"
ROUND = {
    "id": ROUND_ID,
    "repository": "https://example.org/training_results_v1.0",
    "commit": "example",
    "commit_date": "2021-06-30",
    "published": "2021-06-30",
    "ruleset": "1.0.0",
    "results": 2,
    "logs_missing": 0,
    "skipped": 0,
}
# facts of each result; the record's writer gives the rest (importer/small_record.py, result)
RESULTS = [
    {
        "ident": ident,
        "round_id": ROUND_ID,
        "submitter": submitter,
        "folder": system_folder,
        "benchmark": "bert",
        "value": value,
        "runs": runs,
        "accelerator_model": model,
        "accelerator_count": count,
        "framework": framework,
    }
    for ident, submitter, system_folder, value, runs, model, count, framework in (
        ("r-acme", "Acme", "acme16", 30.0, [29.0, 30.0, 30.0, 30.0, 31.0], "Acme A1", 16, "AcmeFlow"),
        ("r-zenith", "Zenith", "zenith8", 20.0, [19.0, 20.0, 20.0, 20.0, 21.0], "Zenith Z1", 8, "ZenTorch"),
    )
]


class StarterRefused(Exception):
    """DIR/content exists: nothing is written over an editor's files."""


def write_starter(folder: Path, write_record: Callable[[Path, list[dict], list[dict]], None]) -> Path:
    """Write the starter site into folder/content (and a .gitignore for output/ and .cache/);
    `write_record(record folder, rounds, results' facts)` writes and seals its record (the
    importer's writer: the command line passes it, the editor tools never import the importer)."""
    content = folder / "content"
    if content.exists():
        raise StarterRefused(f"{content} already exists; nothing written (choose a new folder)")
    if folder.exists() and not folder.is_dir():
        raise StarterRefused(f"{folder} exists and is not a folder; nothing written")
    shutil.copytree(paths.I18N, content / "i18n")
    for rel, text in FILES.items():
        path = content / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    write_record(content / "data" / "record", [ROUND], RESULTS)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text(GITIGNORE, "utf-8")
    return content
