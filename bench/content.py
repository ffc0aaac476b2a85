"""Deterministic synthetic content for the benchmark.

One `Corpus` (data records + N bilingual reports) is written out in four layouts: our content
format (with or without ```chart blocks), Hugo, MkDocs and Pelican. Every report is a list of
parts (prose, [[...]] figures, result tables, a chart); our layout writes the figures and tables
as references to the data, the peers get the same numbers as plain text and Markdown tables.

Everything comes from `random.Random(<string seed>)`, which is stable across Python runs and
independent of PYTHONHASHSEED, so the same arguments always give byte-identical files."""

from __future__ import annotations

import datetime as dt
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

SEED = "sitegen-bench-v1"

EN_WORDS = """
system systems training trained result results benchmark benchmarks round rounds accelerator
accelerators chip chips cluster clusters node nodes server servers network memory bandwidth
software framework compiler kernel kernels model models dataset quality target accuracy time
minutes hours speed faster slower scale scaling size larger smaller price cost vendor vendors
submission submissions division closed open official log logs run runs average median fastest
slowest reported measured audited public record records article articles figure figures claim
claims number numbers table tables chart comparison compare compares compared against between
with without across within over under after before during while because although however also
still only just about nearly roughly almost clearly largely mostly partly simply directly the
the the the a a a an of of of of to to to in in in on on for for and and and is is are was were
be been has have had this that these those which where when what how each every both either
same different similar other another first second third previous next new old own full half
large small high low higher lower better worse best worst more less most least many few much
little part whole set group family generation host cpu precision batch step steps epoch epochs
throughput latency efficiency power rack unit units configuration configurations setting
settings version versions release releases tuning tuned optimised default reference baseline
gain gains loss share shares ratio ratios value values change changes difference differences
picture story question answer reason reasons detail details point points case cases example
""".split()

ZH_WORDS = """
我们 系统 训练 性能 结果 数据 模型 时间 提高 比较 分析 方法 问题 发展 技术 工作 需要 可以
已经 没有 因为 所以 但是 如果 这个 一个 进行 使用 成绩 测试 基准 加速器 芯片 服务器 软件 硬件
框架 规模 集群 内存 带宽 网络 价格 成本 厂商 官方 公开 记录 文章 报告 说明 标准 质量 目标
准确率 速度 更快 明显 相同 不同 主要 重要 部分 全部 每个 同时 之后 之前 通过 对于 其中 由于
虽然 仍然 只是 更多 较少 非常 一般 实际 可能 应该 能够 认为 表示 提出 显示 发现 得到 达到
超过 低于 高于 相当 大约 总体 整体 具体 相关 有关 方面 情况 条件 环境 过程 阶段 版本 提交
轮次 封闭 开放 组别 参考 配置 节点 并行 扩展 效率 功耗 利用 优化 编译 调度 精度 混合 批量
迭代 收敛 参数 任务 语言 图像 识别 推荐 语音 翻译 检测 分割 的 的 的 的 了 了 在 在 在 和 和
是 是 也 都 就 还 与 及 并 而 把 被 对 从 到 为 以 中 上 下 之间 这些 那些 其他 另外 此外
""".split()

VENDORS = [
    ("acme", "Acme", "艾克米", "#0072B2"),
    ("zenith", "Zenith", "天顶", "#009E73"),
    ("orion", "Orion", "猎户", "#D55E00"),
    ("nimbus", "Nimbus", "云雨", "#CC79A7"),
    ("vertex", "Vertex", "顶点", "#E69F00"),
]
BENCHMARKS = [
    ("bert", "BERT-Large", "Natural language processing", "自然语言处理", 20.0),
    ("resnet", "ResNet-50", "Image classification", "图像分类", 30.0),
    ("rnnt", "RNN-T", "Speech recognition", "语音识别", 45.0),
]
ROUNDS = ["v1.0", "v1.1"]
SIZES = [8, 16, 32, 64, 128, 256]
GLOSSARY = [
    ("time-to-train", "Time to train", "训练用时"),
    ("closed-division", "Closed division", "封闭组"),
    ("open-division", "Open division", "开放组"),
    ("round", "Round", "轮次"),
    ("speedup", "Speed-up", "加速比"),
    ("price-performance", "Price-performance", "性价比"),
    ("accelerator", "Accelerator", "加速器"),
    ("submitter", "Submitter", "提交者"),
    ("quality-target", "Quality target", "质量目标"),
    ("run-log", "Run log", "运行日志"),
]
HEADINGS = {
    "en": ["Key findings", "What was submitted", "How the systems compare", "Method and caveats"],
    "zh": ["主要发现", "提交情况", "系统对比", "方法与局限"],
}
TABLE_HEAD = {
    "en": ["System", "Round", "Division", "Framework", "Accelerators", "Time (min)"],
    "zh": ["系统", "轮次", "组别", "框架", "加速器数", "用时（分钟）"],
}
DIVISION = {"en": {"closed": "Closed", "open": "Open"}, "zh": {"closed": "封闭组", "open": "开放组"}}
FRAMEWORKS = ["PyTorch 1.9", "TensorFlow 2.5", "MXNet 1.8", "JAX 0.2", "PaddlePaddle 2.2"]


@dataclass
class Report:
    slug: str
    date: dt.date
    title: dict
    summary: dict
    systems: list
    benchmarks: list
    sources: list
    claims: list
    body: dict  # lang -> list of parts


@dataclass
class Corpus:
    vendors: list = field(default_factory=list)
    systems: list = field(default_factory=list)
    benchmarks: list = field(default_factory=list)
    results: list = field(default_factory=list)
    sources: list = field(default_factory=list)
    claims: list = field(default_factory=list)
    glossary: list = field(default_factory=list)
    reports: list = field(default_factory=list)

    def result(self, rid):
        return self._by("results", rid)

    def system(self, sid):
        return self._by("systems", sid)

    def _by(self, table, ident):
        index = self.__dict__.setdefault("_index", {})
        if table not in index:
            index[table] = {r["id"]: r for r in getattr(self, table)}
        return index[table][ident]


# ---- prose ----------------------------------------------------------------------------------


def _sentence(rng, lang) -> tuple[str, int]:
    if lang == "en":
        n = rng.randint(8, 18)
        words = [rng.choice(EN_WORDS) for _ in range(n)]
        if n > 11 and rng.random() < 0.5:
            words[rng.randint(3, n - 4)] += ","
        return " ".join(words).capitalize() + ".", n
    n = rng.randint(8, 18)
    words = [rng.choice(ZH_WORDS) for _ in range(n)]
    if n > 11:
        words[rng.randint(3, n - 4)] += "，"
    return "".join(words) + "。", n


def prose(rng, lang, words: int) -> str:
    out, count = [], 0
    while count < words:
        text, n = _sentence(rng, lang)
        out.append(text)
        count += n
    return (" " if lang == "en" else "").join(out)


# ---- data -----------------------------------------------------------------------------------


def make_corpus(n_reports: int, words: int = 800, systems: int = 20) -> Corpus:
    rng = random.Random(f"{SEED}:data")
    c = Corpus()
    for vid, en, zh, colour in VENDORS:
        c.vendors.append({"id": vid, "en": en, "zh": zh, "color": colour})
    c.sources = [
        {
            "id": "mlperf-training-v1.0",
            "kind": "official",
            "title": "MLPerf Training v1.0 results",
            "publisher": "MLCommons",
            "date": "2021-06-30",
        },
        {
            "id": "mlperf-training-v1.1",
            "kind": "official",
            "title": "MLPerf Training v1.1 results",
            "publisher": "MLCommons",
            "date": "2021-12-01",
        },
    ] + [
        {
            "id": f"article-{k}",
            "kind": "article",
            "title": f"Bench article {k}",
            "publisher": f"Weekly {k}",
            "date": f"2021-0{k + 1}-15",
        }
        for k in range(1, 5)
    ]
    for i in range(systems):
        vid = VENDORS[i % len(VENDORS)][0]
        size = SIZES[i % len(SIZES)]
        sid = f"{vid}-s{i:02d}-{size}"
        vendor = VENDORS[i % len(VENDORS)]
        c.systems.append(
            {
                "id": sid,
                "vendor": vid,
                "en": f"{vendor[1]} S{i:02d}/{size}",
                "zh": f"{vendor[2]} S{i:02d}/{size}",
                "family": f"{vid}-s",
                "generation": 1 + i // 10,
                "accelerator": f"{vendor[1]} A{1 + i // 10}",
                "count": size,
                "pflops": round(size * rng.uniform(0.2, 0.4), 1),
                "price": int(size * rng.uniform(7000, 12000)) // 1000 * 1000,
                "round": ROUNDS[i % len(ROUNDS)],
                "division": "open" if i % 7 == 6 else "closed",
                "framework": FRAMEWORKS[i % len(FRAMEWORKS)],
            }
        )
    for bid, name, task_en, task_zh, base in BENCHMARKS:
        c.benchmarks.append({"id": bid, "name": name, "en": task_en, "zh": task_zh})
        for s in c.systems:
            centre = base * 64 / s["count"] * rng.uniform(0.6, 1.4)
            runs = [round(centre * rng.uniform(0.97, 1.03), 2) for _ in range(5)]
            # the score is what the rules make of the runs (the build checks it): the olympic
            # mean of five, fastest and slowest dropped
            value = round(sum(sorted(runs)[1:4]) / 3, 6)
            c.results.append(
                {
                    "id": f"{s['round']}-{s['vendor']}-{s['id']}-{bid}",
                    "round": s["round"],
                    "division": s["division"],
                    "system": s["id"],
                    "benchmark": bid,
                    "value": value,
                    "framework": s["framework"],
                    "source": f"mlperf-training-{s['round']}",
                    "runs": runs,
                }
            )
    _make_claims(c, rng)
    c.glossary = [
        {
            "id": gid,
            "en": en,
            "zh": zh,
            "def_en": prose(random.Random(f"{SEED}:g:{gid}:en"), "en", 30),
            "def_zh": prose(random.Random(f"{SEED}:g:{gid}:zh"), "zh", 30),
        }
        for gid, en, zh in GLOSSARY
    ]
    for i in range(n_reports):
        c.reports.append(_make_report(c, i, words))
    return c


def _make_claims(c: Corpus, rng) -> None:
    by_bench = {}
    for r in c.results:  # closed division only: a ratio across divisions needs a flag
        if r["division"] == "closed":
            by_bench.setdefault(r["benchmark"], []).append(r)
    for k in range(12):
        rows = by_bench[BENCHMARKS[k % 3][0]]
        a, b = rng.sample(rows, 2)
        kind = ["speedup", "improvement", "time", "price_performance", "price", "none"][k % 6]
        claim = {
            "id": f"claim-{k:02d}",
            "source": f"article-{1 + k % 4}",
            "kind": kind,
            "result": a["id"],
            "baseline": b["id"],
        }
        sa, sb = c.system(a["system"]), c.system(b["system"])
        if kind == "speedup":
            claim.update(figure=round(b["value"] / a["value"], 2), unit="x")
        elif kind == "improvement":
            claim.update(figure=round((b["value"] / a["value"] - 1) * 100), unit="percent")
        elif kind == "time":
            claim.update(figure=round(a["value"], 1), unit="min")
        elif kind == "price_performance":
            claim.update(figure=round(b["value"] * sb["price"] / (a["value"] * sa["price"]), 2), unit="x")
        elif kind == "price":
            claim.update(figure=sa["price"], unit="usd", system=sa["id"])
        else:
            claim.update(figure=round(rng.uniform(2, 9), 1), unit="x")
        stated = {
            "x": f"{claim['figure']}x",
            "percent": f"{claim['figure']}%",
            "min": f"{claim['figure']} min",
            "usd": f"${claim['figure']:,}",
        }[claim["unit"]]
        claim["stated_as"] = stated
        c.claims.append(claim)


def _pick(rng, c: Corpus, benchmark: str, round_: str, k: int) -> list[dict]:
    rows = [
        r
        for r in c.results
        if r["benchmark"] == benchmark and r["round"] == round_ and r["division"] == "closed"
    ]  # compared with each other: one division
    return sorted(rng.sample(rows, min(k, len(rows))), key=lambda r: r["id"])


def _make_report(c: Corpus, i: int, words: int) -> Report:
    rng = random.Random(f"{SEED}:report:{i}")
    b1, b2 = rng.sample([b["id"] for b in c.benchmarks], 2)
    r1, r2 = rng.choice(ROUNDS), rng.choice(ROUNDS)
    t1 = _pick(rng, c, b1, r1, rng.randint(3, 6))
    t2 = _pick(rng, c, b2, r2, rng.randint(3, 6))
    a, b = t1[0], t1[1]
    sa, sb = c.system(a["system"]), c.system(b["system"])
    checkable = [k for k in c.claims if k["kind"] != "none"]  # [[check:]] needs a value
    claim = checkable[i % len(checkable)]
    systems = sorted({r["system"] for r in t1 + t2})
    sources = sorted({f"mlperf-training-{r1}", f"mlperf-training-{r2}", claim["source"]})
    bname = {x["id"]: x["name"] for x in c.benchmarks}
    title = {
        "en": f"Report {i + 1}: {sa['en']} against {sb['en']} on {bname[b1]}",
        "zh": f"报告{i + 1}：{sa['zh']}对比{sb['zh']}（{bname[b1]}）",
    }
    summary = {lang: prose(random.Random(f"{SEED}:summary:{i}:{lang}"), lang, 25) for lang in ("en", "zh")}
    body = {}
    # The figures each paragraph carries; the same in both languages.
    refs = [
        [
            ("result", a["id"]),
            ("result", b["id"]),
            ("speedup", f"{a['id']}/{b['id']}"),
            ("source", f"mlperf-training-{r1}"),
        ],
        [("system", sa["id"]), ("count", sa["id"]), ("price", sa["id"]), ("benchmark", b1)],
        [
            ("improvement", f"{a['id']}/{b['id']}"),
            ("reduction", f"{a['id']}/{b['id']}"),
            ("claim", claim["id"]),
            ("check", claim["id"]),
        ],
        [
            ("ppr", f"{a['id']}/{b['id']}"),
            ("spec", f"{sb['id']}/peak_fp16_pflops"),
            ("system", sb["id"]),
            ("benchmark", b2),
        ],
        [("result", t2[0]["id"]), ("system", t2[0]["system"]), ("source", claim["source"])],
    ]
    per_paragraph = max(20, words // 10)
    for lang in ("en", "zh"):
        prng = random.Random(f"{SEED}:body:{i}:{lang}")
        parts = []
        for h, heading in enumerate(HEADINGS[lang]):
            parts.append(("heading", heading))
            for p in range(2 if h < 2 else 3):
                para = []
                figures = refs[(2 * h + p) % len(refs)] if p < 2 else []
                chunks = len(figures) + 1
                for k in range(chunks):
                    para.append(("text", prose(prng, lang, per_paragraph // chunks)))
                    if k < len(figures):
                        para.append(("ref",) + figures[k])
                parts.append(("para", para))
            if h == 1:
                parts.append(("table", b1, r1, [r["id"] for r in t1]))
                parts.append(("chart", b1, r1, [r["id"] for r in t1]))
            if h == 2:
                parts.append(("table", b2, r2, [r["id"] for r in t2]))
        body[lang] = parts
    return Report(
        slug=f"report-{i + 1:04d}",
        date=dt.date(2021, 1, 1) + dt.timedelta(days=i % 700),
        title=title,
        summary=summary,
        systems=systems,
        benchmarks=sorted({b1, b2}),
        sources=sources,
        claims=[claim["id"]],
        body=body,
    )


# ---- our content format ------------------------------------------------------------------------


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _l(en: str, zh: str) -> str:
    return "{en: " + _q(en) + ", zh: " + _q(zh) + "}"


def write_ours(c: Corpus, content: Path, i18n: Path, charts: bool) -> None:
    """Write the project in our content format (docs/content-format.md) into `content`."""
    if content.exists():
        shutil.rmtree(content)
    (content / "data").mkdir(parents=True)
    (content / "reports").mkdir()
    shutil.copytree(i18n, content / "i18n")
    files = {
        "site.yaml": "title: "
        + _l("Bench Ledger", "基准账本")
        + "\ntagline: "
        + _l("A synthetic site for the speed benchmark.", "用于速度基准的合成站点。")
        + "\nlanguages: [en, zh]\ndefault_language: en\n"
        "base_url: https://example.org/bench/\ndate: 2022-07-04\n",
        "data/vendors.yaml": "".join(
            f"- id: {v['id']}\n  name: {_l(v['en'], v['zh'])}\n  color: \"{v['color']}\"\n" for v in c.vendors
        ),
        "data/sources.yaml": "".join(
            f"- id: {s['id']}\n  kind: {s['kind']}\n  title: {_q(s['title'])}\n"
            f"  publisher: {_q(s['publisher'])}\n  date: {s['date']}\n  language: en\n"
            f"  url: https://example.org/{s['id']}\n"
            f"  takes: {_l('Results and their logs.', '成绩及其日志。')}\n"
            for s in c.sources
        ),
        "data/systems.yaml": "".join(
            f"- id: {s['id']}\n  vendor: {s['vendor']}\n  name: {_l(s['en'], s['zh'])}\n"
            f"  family: {s['family']}\n  generation: {s['generation']}\n"
            f"  accelerator: {_q(s['accelerator'])}\n  accelerator_count: {s['count']}\n"
            f"  host_cpu: {{model: Bench CPU 64, count: 2}}\n  form_factor: 4U\n"
            f"  description: {_l('A synthetic system for the benchmark.', '用于基准的合成系统。')}\n"
            f"  specs:\n    - {{name: peak_fp16_pflops, value: {s['pflops']}, unit: PFLOPS, "
            f"source: article-1}}\n"
            f"  prices:\n    - {{amount: {s['price']}, currency: USD, basis: estimate, "
            f"date: 2021-07-01, source: article-2}}\n"
            for s in c.systems
        ),
        "data/benchmarks.yaml": "".join(
            f"- id: {b['id']}\n  name: {_l(b['name'], b['name'])}\n  task: {_l(b['en'], b['zh'])}\n"
            f"  dataset: Synthetic\n  quality_target: {_l('0.75 accuracy', '准确率 0.75')}\n"
            f"  metric: time_to_train\n  unit: min\n  lower_is_better: true\n"
            for b in c.benchmarks
        ),
        "data/mlperf_systems.yaml": "".join(
            f"{s['round']}/{_vendor_name(s['vendor'])}/{s['id']}: {s['id']}\n" for s in c.systems
        ),
        "data/chips.yaml": chips_yaml(c),
        "data/claims.yaml": "".join(_claim_yaml(k) for k in c.claims),
        "data/glossary.yaml": "".join(
            f"- id: {g['id']}\n  term: {_l(g['en'], g['zh'])}\n  definition: {_l(g['def_en'], g['def_zh'])}\n"
            for g in c.glossary
        ),
    }
    for rel, text in files.items():
        (content / rel).write_text(text, "utf-8")
    for r in c.reports:
        for lang in ("en", "zh"):
            (content / "reports" / f"{r.slug}.{lang}.md").write_text(report_ours(c, r, lang, charts), "utf-8")
    write_record(c, content)


def _vendor_name(vid: str) -> str:
    return next(v[1] for v in VENDORS if v[0] == vid)


ROUND_FACTS = {
    "v1.0": ("50619b5df63f1d646715a82c1fb8c35f271e25fa", "2021-06-30", "1.0.0"),
    "v1.1": ("1b2c3d4e5f60718293a4b5c6d7e8f90123456789", "2021-12-01", "1.1.0"),
}


def record_files(c: Corpus, changed: dict | None = None) -> dict[str, bytes]:
    """The record (content/data/record/, in the importer's format): each system's results in
    its round, under a folder named after the system; `changed` maps result ids to a
    replacement value (the data-edit step): its runs are scaled with it, so that the score
    still follows from them."""
    from sitegen.importer import small_record

    changed = changed or {}
    results = []
    for r in c.results:
        s = c.system(r["system"])
        factor = changed[r["id"]] / r["value"] if r["id"] in changed else 1
        results.append(
            small_record.result(
                r["id"],
                r["round"],
                _vendor_name(s["vendor"]),
                s["id"],
                r["benchmark"],
                changed.get(r["id"], r["value"]),
                [round(v * factor, 6) for v in r["runs"]],
                division=r["division"],
                system_name=s["en"],
                accelerator_model=s["accelerator"],
                accelerator_count=s["count"],
                host_cpu_model="Bench CPU 64",
                framework=r["framework"],
            )
        )
    rounds = [
        {
            "id": rnd,
            "repository": f"https://github.com/mlcommons/training_results_{rnd}",
            "commit": commit,
            "commit_date": published,
            "published": published,
            "ruleset": ruleset,
            "results": sum(r["round"] == rnd for r in results),
            "logs_missing": 0,
            "skipped": 0,
        }
        for rnd, (commit, published, ruleset) in ROUND_FACTS.items()
    ]
    return small_record.round_files(rounds, results)


def write_record(c: Corpus, content: Path, changed: dict | None = None) -> None:
    """Write (or rewrite) the record and its seal, as the importer does."""
    from sitegen.importer import small_record

    small_record.write_record(content / "data" / "record", record_files(c, changed))


def chips_yaml(c: Corpus) -> str:
    """Each vendor's accelerators (one family a generation), so that every result has its chip."""
    out = []
    for vid, *_ in VENDORS:
        names = sorted({s["accelerator"] for s in c.systems if s["vendor"] == vid})
        if names:
            out.append(f"- vendor: {vid}\n  families:\n")
            for name in names:
                family = name.split(" ")[-1]
                out.append(
                    f"    - family: {family}\n      variants:\n        - variant: {family}\n"
                    f"          match: [{_q(name.lower())}]\n"
                )
    return "".join(out)


def _claim_yaml(k: dict) -> str:
    check = {
        "speedup": f"{{kind: speedup, result: {k['result']}, baseline: {k['baseline']}}}",
        "improvement": f"{{kind: improvement, result: {k['result']}, baseline: {k['baseline']}}}",
        "time": f"{{kind: time, result: {k['result']}}}",
        "price_performance": f"{{kind: price_performance, result: {k['result']}, baseline: {k['baseline']}}}",
        "price": f"{{kind: price, system: {k.get('system')}}}",
        "none": "{kind: none, reason: " + _l("No log backs it.", "没有日志可以核对。") + "}",
    }[k["kind"]]
    return (
        f"- id: {k['id']}\n  source: {k['source']}\n  figure: {k['figure']}\n"
        f"  unit: {k['unit']}\n  stated_as: {_q(k['stated_as'])}\n"
        f"  statement: {_l('A vendor said something checkable.', '厂商作出了一项可核对的说法。')}\n"
        f"  measures: {_l('Time to train on one benchmark.', '一项基准的训练用时。')}\n"
        f"  audited: {'false' if k['kind'] == 'none' else 'true'}\n  check: {check}\n"
    )


def _front(r: Report, lang: str) -> str:
    return (
        f"---\ntitle: {_q(r.title[lang])}\ndate: {r.date.isoformat()}\n"
        f"summary: {_q(r.summary[lang])}\nsources: [{', '.join(r.sources)}]\n"
        f"systems: [{', '.join(r.systems)}]\nbenchmarks: [{', '.join(r.benchmarks)}]\n"
        f"claims: [{', '.join(r.claims)}]\n---\n"
    )


def _paragraphs(parts, lang, ref, table, chart) -> str:
    out = []
    sep = " " if lang == "en" else ""
    for part in parts:
        if part[0] == "heading":
            out.append(f"## {part[1]}")
        elif part[0] == "para":
            text = ""
            for piece in part[1]:
                if piece[0] == "text":
                    text += (sep if text else "") + piece[1]
                else:  # the figure goes inside the sentence, before its full stop
                    text = text[:-1] + sep + ref(piece[1], piece[2]) + text[-1]
            out.append(text)
        elif part[0] == "table":
            out.append(table(*part[1:]))
        elif part[0] == "chart" and chart:
            out.append(chart(*part[1:]))
    return "\n\n".join(o for o in out if o) + "\n"


def report_ours(c: Corpus, r: Report, lang: str, charts: bool) -> str:
    def selection(benchmark, round_, ids):
        systems = sorted({c.result(i)["system"] for i in ids})
        return f"benchmark: {benchmark}\nround: {round_}\nsystems: [{', '.join(systems)}]\n"

    def table(*args):
        return "```results\n" + selection(*args) + "```"

    def chart(*args):
        return "```chart\n" + selection(*args) + "metric: time\n```"

    return _front(r, lang) + _paragraphs(
        r.body[lang], lang, lambda k, a: f"[[{k}:{a}]]", table, chart if charts else None
    )


# ---- plain Markdown for the peers --------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def plain_ref(c: Corpus, lang: str, kind: str, arg: str) -> str:
    head, _, tail = arg.partition("/")
    minutes = "分钟" if lang == "zh" else " min"
    if kind == "result":
        return _num(c.result(arg)["value"]) + minutes
    if kind in ("speedup", "improvement", "reduction", "ppr"):
        a, b = c.result(head), c.result(tail)
        if kind == "speedup":
            return f"{b['value'] / a['value']:.2f}×"
        if kind == "improvement":
            return f"{(b['value'] / a['value'] - 1) * 100:.1f}%"
        if kind == "reduction":
            return f"{(1 - a['value'] / b['value']) * 100:.1f}%"
        pa, pb = c.system(a["system"])["price"], c.system(b["system"])["price"]
        return f"{b['value'] * pb / (a['value'] * pa):.2f}×"
    if kind == "system":
        return c.system(arg)[lang]
    if kind == "count":
        return str(c.system(arg)["count"])
    if kind == "price":
        return f"${c.system(arg)['price']:,}"
    if kind == "spec":
        return f"{c.system(head)['pflops']} PFLOPS"
    if kind == "benchmark":
        return next(b["name"] for b in c.benchmarks if b["id"] == arg)
    if kind == "source":
        s = next(s for s in c.sources if s["id"] == arg)
        return f"({s['publisher']}, {s['date']})"
    if kind in ("claim", "check"):
        return next(k["stated_as"] for k in c.claims if k["id"] == arg)
    raise ValueError(kind)


def report_plain(c: Corpus, r: Report, lang: str) -> str:
    """The report body as plain Markdown: the same prose, figures as text, tables as tables."""

    def table(benchmark, round_, ids):
        rows = sorted((c.result(i) for i in ids), key=lambda x: (x["division"], x["value"]))
        head = TABLE_HEAD[lang]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 4 + "---:|---:|"]
        for x in rows:
            s = c.system(x["system"])
            lines.append(
                f"| {s[lang]} | {x['round']} | {DIVISION[lang][x['division']]} | "
                f"{x['framework']} | {s['count']} | {_num(x['value'])} |"
            )
        return "\n".join(lines)

    return _paragraphs(r.body[lang], lang, lambda k, a: plain_ref(c, lang, k, a), table, None)


HUGO_CONFIG = """\
baseURL = "https://example.org/bench/"
title = "Bench"
defaultContentLanguage = "en"
relativeURLs = true

[languages.en]
contentDir = "content/en"
languageName = "English"
weight = 1

[languages.zh]
contentDir = "content/zh"
languageName = "中文"
weight = 2
hasCJKLanguage = true
"""

HUGO_SINGLE = """\
<!doctype html>
<html lang="{{ .Lang }}"><head><meta charset="utf-8"><title>{{ .Title }} | {{ .Site.Title }}</title>
<meta name="description" content="{{ .Summary | plainify }}"></head>
<body><header><a href="{{ .Site.Home.RelPermalink }}">{{ .Site.Title }}</a>
{{ range .Translations }}<a href="{{ .RelPermalink }}" hreflang="{{ .Lang }}">{{ .Language.LanguageName }}</a>{{ end }}
</header><main><h1>{{ .Title }}</h1><p><time>{{ .Date.Format "2006-01-02" }}</time></p>
{{ .TableOfContents }}{{ .Content }}</main></body></html>
"""

HUGO_LIST = """\
<!doctype html>
<html lang="{{ .Lang }}"><head><meta charset="utf-8"><title>{{ .Title }} | {{ .Site.Title }}</title></head>
<body><header><a href="{{ .Site.Home.RelPermalink }}">{{ .Site.Title }}</a></header>
<main><h1>{{ .Title }}</h1><ul>
{{ range .RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <time>{{ .Date.Format "2006-01-02" }}</time><p>{{ .Summary | plainify }}</p></li>
{{ end }}</ul></main></body></html>
"""


def _yaml_front(title: str, date: dt.date, summary: str) -> str:
    return f"---\ntitle: {_q(title)}\ndate: {date.isoformat()}\nsummary: {_q(summary)}\n---\n"


def write_hugo(c: Corpus, root: Path) -> None:
    if root.exists():
        shutil.rmtree(root)
    (root / "layouts" / "_default").mkdir(parents=True)
    (root / "config.toml").write_text(HUGO_CONFIG, "utf-8")
    (root / "layouts" / "_default" / "single.html").write_text(HUGO_SINGLE, "utf-8")
    (root / "layouts" / "_default" / "list.html").write_text(HUGO_LIST, "utf-8")
    for lang in ("en", "zh"):
        folder = root / "content" / lang
        folder.mkdir(parents=True)
        for r in c.reports:
            (folder / f"{r.slug}.md").write_text(
                _yaml_front(r.title[lang], r.date, r.summary[lang]) + report_plain(c, r, lang), "utf-8"
            )


def write_mkdocs(c: Corpus, root: Path) -> None:
    if root.exists():
        shutil.rmtree(root)
    docs = root / "docs"
    for lang in ("en", "zh"):
        (docs / lang).mkdir(parents=True)
        for r in c.reports:
            (docs / lang / f"{r.slug}.md").write_text(
                f"---\ntitle: {_q(r.title[lang])}\n---\n# {r.title[lang]}\n\n" + report_plain(c, r, lang),
                "utf-8",
            )
    (docs / "index.md").write_text(
        "# Bench\n\n" + "".join(f"- [{r.title['en']}](en/{r.slug}.md)\n" for r in c.reports), "utf-8"
    )
    (root / "mkdocs.yml").write_text("site_name: Bench\nsite_url: https://example.org/bench/\n", "utf-8")


PELICAN_CONF = """\
AUTHOR = "Bench"
SITENAME = "Bench"
SITEURL = ""
PATH = "content"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
RELATIVE_URLS = True
FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
"""


def write_pelican(c: Corpus, root: Path) -> None:
    if root.exists():
        shutil.rmtree(root)
    for lang in ("en", "zh"):
        folder = root / "content" / lang
        folder.mkdir(parents=True)
        for r in c.reports:
            (folder / f"{r.slug}.md").write_text(
                f"Title: {r.title[lang]}\nDate: {r.date.isoformat()}\nSlug: {r.slug}\n"
                f"Lang: {lang}\nSummary: {r.summary[lang]}\n\n" + report_plain(c, r, lang),
                "utf-8",
            )
    (root / "pelicanconf.py").write_text(PELICAN_CONF, "utf-8")
