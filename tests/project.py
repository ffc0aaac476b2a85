"""A tiny two-language content project, written into a folder for tests to build or break."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from sitegen.importer import small_record

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
# the store folder builds share when a test needs no store of its own (the checkout's cache, as
# the command line's default)
CACHE = ROOT / ".cache"

SITE = """\
title: {en: Test Ledger, zh: 测试账本}
tagline: {en: A tiny test site., zh: 一个很小的测试站点。}
languages: [en, zh]
default_language: en
"""
# The sample site in three languages: Traditional Chinese converted from Simplified.
THREE = SITE.replace(
    "languages: [en, zh]\n",
    """\
languages:
  - {code: en, lang: en, locale: en_US, name: English}
  - {code: zh, lang: zh-Hans, locale: zh_Hans_CN, name: 简体中文}
  - {code: zh-hant, lang: zh-Hant, locale: zh_Hant_TW, name: 繁體中文, from: zh, convert: s2twp}
""",
)

SOURCES = """\
- id: s-article
  kind: article
  title: A test article
  publisher: Test Weekly
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
"""

VENDORS = """\
- id: acme
  name: {en: Acme, zh: 艾克米}
  color: "#0072B2"
- id: zenith
  name: {en: Zenith, zh: 天顶}
  color: "#009E73"
"""

SYSTEMS = """\
- id: acme-16
  vendor: acme
  name: {en: Acme 16, zh: Acme 16}
  family: acme
  generation: 1
  accelerator: A1
  accelerator_count: 16
  description: {en: A small test system., zh: 一套小型测试系统。}
  prices:
    - {amount: 150000, currency: USD, basis: estimate, source: s-article}
- id: zenith-8
  vendor: zenith
  name: {en: Zenith 8, zh: Zenith 8}
  family: zenith
  generation: 1
  accelerator: Z1
  accelerator_count: 8
  description: {en: Another test system., zh: 另一套测试系统。}
  prices:
    - {amount: 300000, currency: USD, basis: estimate, source: s-article}
"""

BENCHMARKS = """\
- id: bert
  name: {en: BERT-Large, zh: BERT-Large}
  task: {en: Language, zh: 语言}
  dataset: Wikipedia
  quality_target: {en: 0.720 accuracy, zh: 准确率 0.720}
  metric: time_to_train
  unit: min
  lower_is_better: true
"""

# The record (docs/record-format.md): one round, two results, written by the importer's writer.
# Each score is the olympic mean of its five runs (fastest and slowest dropped): 30.0 and 20.0.
ROUND_V10 = {
    "id": "v1.0",
    "repository": "https://github.com/mlcommons/training_results_v1.0",
    "commit": "50619b5df63f1d646715a82c1fb8c35f271e25fa",
    "commit_date": "2023-05-18",
    "published": "2021-06-30",
    "ruleset": "1.0.0",
    "results": 2,
    "logs_missing": 0,
    "skipped": 0,
}
R_ACME = small_record.result(
    "r-acme", "v1.0", "Acme", "acme16", "bert", 30.0, [29.0, 30.0, 30.0, 30.0, 31.0],
    accelerator_model="Acme A1", framework="AcmeFlow",
)  # fmt: skip
R_ZENITH = small_record.result(
    "r-zenith", "v1.0", "Zenith", "zenith8", "bert", 20.0, [19.0, 20.0, 20.0, 20.0, 21.0],
    accelerator_model="Zenith Z1", accelerator_count=8, framework="ZenTorch",
)  # fmt: skip
RECORD = {
    f"data/record/{name}": data.decode("utf-8")
    for name, data in small_record.round_files([ROUND_V10], [R_ACME, R_ZENITH]).items()
}
RESULTS_FILE = "data/record/results-v1.0.yaml"  # the round file of RESULTS
RESULTS = RECORD[RESULTS_FILE]
SYSTEM_MAP = "v1.0/Acme/acme16: acme-16\nv1.0/Zenith/zenith8: zenith-8\n"
OFFICIAL = """\
- id: mlperf-training-v1.0
  kind: official
  title: MLPerf Training v1.0 results
  publisher: MLCommons
  date: 2021-06-30
  language: en
  takes: {en: Result logs., zh: 成绩日志。}
"""
CHIPS = """\
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
"""

CLAIMS = """\
- id: c-ppr
  source: s-article
  figure: 1.3
  unit: x
  stated_as: "1.3x"
  statement: {en: Acme gives more per dollar., zh: Acme 每美元性能更高。}
  measures: {en: Price-performance on BERT., zh: BERT 上的性价比。}
  audited: true
  check: {kind: price_performance, result: r-acme, baseline: r-zenith}
"""

# The shipped term list's words for a table's column (content/data/terms.csv): the record's
# pages (downloads, explore) name columns, and 列 is a row in Taiwan; a site with zh-hant needs them
COLUMN_TERMS = (
    "en,zh-Hans,zh-Hant,avoid,avoid-en,avoid-zh-Hant,note\n"
    "column name,列名,欄名,,,,\n"
    "sort by this column,按该列排序,依該欄排序,,,,a column is 欄 in Taiwan\n"
)

GLOSSARY = """\
- id: ttt
  term: {en: Time to train, zh: 训练时间}
  definition: {en: Minutes to reach the target., zh: 达到目标所需的分钟数。}
"""

REPORT_EN = """\
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
systems: [acme-16, zenith-8]
```
"""

REPORT_ZH = """\
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
"""

PAGE_EN = "---\ntitle: Methodology\nsummary: How numbers are made.\n---\n## Time to train\n\nText.\n"
PAGE_ZH = "---\ntitle: 方法说明\nsummary: 数字从何而来。\n---\n## 训练时间\n\n正文。\n"
# the section the record's pages link to for how a derived figure is made
# the record's pages link these sections: derived figures, and citing a result
METHOD_EN = (
    PAGE_EN
    + "\n## Derived figures {#derived-figures}\n\nText.\n\n## Citing a result {#result-ids}\n\nText.\n"
)
METHOD_ZH = (
    PAGE_ZH + "\n## 派生数据 {#derived-figures}\n\n正文。\n\n## 引用一项成绩 {#result-ids}\n\n正文。\n"
)

FILES = {
    "site.yaml": SITE,
    "data/sources.yaml": SOURCES + OFFICIAL,
    "data/vendors.yaml": VENDORS,
    "data/systems.yaml": SYSTEMS,
    "data/benchmarks.yaml": BENCHMARKS,
    **RECORD,
    "data/mlperf_systems.yaml": SYSTEM_MAP,
    "data/chips.yaml": CHIPS,
    "data/claims.yaml": CLAIMS,
    "data/glossary.yaml": GLOSSARY,
    "reports/acme-vs-zenith.en.md": REPORT_EN,
    "reports/acme-vs-zenith.zh.md": REPORT_ZH,
    "pages/methodology.en.md": METHOD_EN,
    "pages/methodology.zh.md": METHOD_ZH,
}


def write_project(folder: Path, changes: dict[str, str | bytes | None] | None = None) -> Path:
    """Write the tiny project into folder/content; `changes` replaces (or with None, deletes)
    files by their path under content/. The interface strings are the shipped ones."""
    content = folder / "content"
    shutil.copytree(ROOT / "content" / "i18n", content / "i18n")
    files = {**FILES, **(changes or {})}
    for rel, text in files.items():
        if text is None:
            continue
        path = content / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    seal_record(content)
    return content


def seal_record(content: Path) -> None:
    """Seal the project's record (when it has one) as the importer does: every build checks
    its round files against the seal (content/record_seal.py). A test that edits a round file
    on purpose calls this again, as an editor runs `seal-record`."""
    from sitegen.importer import swap

    folder = content / "data" / "record"
    if (folder / "rounds.yaml").is_file():
        swap.replace_record(folder, {})


def snapshot(folder: Path) -> dict[str, str]:
    """Every file and folder under `folder` (hidden ones too) with a digest of its bytes."""
    found = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[rel] = "link:" + os.readlink(path)
        elif path.is_dir():
            found[rel] = "dir"
        else:
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found
