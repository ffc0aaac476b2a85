"""`axledger init DIR`: a small two-language site to start from, written into DIR/content.

Two vendors, two systems, one benchmark, two results, a claim, a report and a page, in English
and Chinese, with the shipped interface strings: it builds as it is, and every file shows the
format (docs/content-format.md describes each)."""

from __future__ import annotations

import shutil
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
- id: s-official
  kind: official
  title: Official results
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
    "data/results.yaml": """\
- id: r-acme
  round: v1.0
  division: closed
  category: available
  system: acme-16
  benchmark: bert
  value: 30.0
  unit: min
  framework: AcmeFlow
  source: s-official
- id: r-zenith
  round: v1.0
  division: closed
  category: available
  system: zenith-8
  benchmark: bert
  value: 20.0
  unit: min
  framework: ZenTorch
  source: s-official
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
sources: [s-article, s-official]
systems: [acme-16, zenith-8]
benchmarks: [bert]
claims: [c-ppr]
---
## Findings

Acme trains BERT in [[result:r-acme]]; Zenith needs [[result:r-zenith]] [[source:s-official]].

```results
benchmark: bert
round: v1.0
```
""",
    "reports/acme-vs-zenith.zh.md": """\
---
title: Acme 对比 Zenith
date: 2021-07-01
summary: Acme 更慢，但更便宜。
sources: [s-article, s-official]
systems: [acme-16, zenith-8]
benchmarks: [bert]
claims: [c-ppr]
---
## 主要发现

Acme 训练 BERT 用时 [[result:r-acme]]，Zenith 用时 [[result:r-zenith]][[source:s-official]]。
""",
    "pages/methodology.en.md": "---\ntitle: Methodology\nsummary: How numbers are made.\n---\n"
    "## Time to train\n\nText.\n",
    "pages/methodology.zh.md": "---\ntitle: 方法说明\nsummary: 数字从何而来。\n---\n## 训练时间\n\n正文。\n",
}
GITIGNORE = "/output/\n/.cache/\n"


class StarterRefused(Exception):
    """DIR/content exists: nothing is written over an editor's files."""


def write_starter(folder: Path) -> Path:
    """Write the starter site into folder/content (and a .gitignore for output/ and .cache/)."""
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
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text(GITIGNORE, "utf-8")
    return content
