"""Traditional Chinese as a Taiwanese editor would have it (issue 32): Taiwan's quotation marks
(never inside code, URLs, references, numbers or an English quotation), the term list's
Taiwan forms and its checks in every language (mainland usage and “” around Chinese in
zh-Hant warn on the source's line, --strict fails) and an override file that wins. (Written
zh-Hant prose and its `written_from`: test_written_zh_hant.py.)"""

from __future__ import annotations

import re

import pytest

from sitegen.base import languages
from sitegen.base.errors import ContentError
from sitegen.base.store import opened
from sitegen.content.load import load_site

from project import REPORT_ZH, THREE, write_project

TERMS = (
    "en,zh-Hans,zh-Hant,avoid,avoid-en,avoid-zh-Hant,note\n"
    "press report,报道,報導,,,報道,Taiwan writes 報導\n"
    "slides,,投影片,,,幻燈片,no conversion rule: the check alone\n"
    "NVIDIA,NVIDIA,NVIDIA,英伟达,Nvidia,輝達,name\n"
)


def _load(tmp_path, changes):
    return load_site(write_project(tmp_path, {"site.yaml": THREE, "data/terms.csv": TERMS, **changes}))


# --- the quotation pass ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "simplified, traditional",
    [
        ("他说“不相上下”的说法成立。", "他說「不相上下」的說法成立。"),  # prose
        ("“外层‘内层’外层”", "「外層『內層』外層」"),  # nested
        ("拿IPU-M2000与“V100”对比", "拿IPU-M2000與「V100」對比"),  # a name, quoted
        ("找到{count}条与“{query}”相关的结果", "找到{count}條與「{query}」相關的結果"),  # placeholder inside
        ("按“the same price”计算", "按“the same price”計算"),  # English, as written
        ("沿用旧名“ipu-pod128”", "沿用舊名「ipu-pod128」"),  # a folder's name, though lower case
    ],
)
def test_quotation_marks_become_taiwan_ones(tmp_path, simplified, traditional):
    site = _load(tmp_path, {})
    assert site.languages.convert(simplified, "zh-hant") == traditional


@pytest.mark.parametrize(
    "untouched",
    [
        "见`a “b” c`一节",  # inline code
        "```\nprint(“代码”)\n```",  # a fenced block
        "[报告](https://example.org/a“b”c)",  # a link's address
        "网址 https://example.org/“x”",  # a bare URL
        "[[claim:x“y”]]",  # a reference
        "12” 屏幕，5'10\"",  # an inch mark and straight quotes
    ],
)
def test_the_quotation_pass_leaves_code_urls_and_numbers(untouched):
    converted = languages.traditional_quotes(untouched)
    assert "「" not in converted and "」" not in converted
    kept = re.findall(r"`[^`]*`|\(https?://[^)]*\)|https?://\S+|\[\[[^\]]*\]\]|12”|5'10\"", untouched)
    assert kept and all(part in converted for part in kept)


def test_quotation_marks_only_in_traditional_text(tmp_path):
    marks = _load(tmp_path, {}).languages.quote_marks
    assert marks("不相上下", "zh") == ("“", "”")
    assert marks("不相上下", "zh-hant") == ("「", "」")
    assert marks("half the price", "zh-hant") == ("“", "”")
    assert marks("ipu-pod128", "zh-hant") == ("「", "」")
    assert marks("half", "en") == ("“", "”")


# --- the term list and its checks --------------------------------------------------------------


def test_the_term_list_corrects_the_converter(tmp_path):
    site = _load(tmp_path, {})
    assert site.languages.convert("据EE Times报道", "zh-hant") == "據EE Times報導"  # OpenCC: 報道


def _warnings(tmp_path, changes, strict=False):
    content = write_project(tmp_path, {"site.yaml": THREE, "data/terms.csv": TERMS, **changes})
    site = load_site(content, strict=strict)
    return [str(p) for p in site.warnings if "term list" in p.message or "「」" in p.message]


def test_a_mainland_term_in_zh_hant_warns_on_the_source_line(tmp_path):
    body = REPORT_ZH + "\n第二段。\n\n他在幻灯片上给出了这个数字。\n"
    line = body.splitlines().index("他在幻灯片上给出了这个数字。") + 1
    assert _warnings(tmp_path, {"reports/acme-vs-zenith.zh.md": body}) == [
        f"content/reports/acme-vs-zenith.zh.md:{line}: warning: zh-hant: '幻燈片': the term list "
        "(data/terms.csv) uses '投影片' for this concept"
    ]


def test_a_load_takes_the_conversions_the_last_one_kept(tmp_path):
    """Text converted to zh-Hant is kept in the store: a load of unchanged content converts
    nothing (OpenCC's dictionaries are never loaded) and gives the same text."""
    content = write_project(tmp_path, {"site.yaml": THREE, "data/terms.csv": TERMS})
    with opened(tmp_path / "cache") as store:
        first = load_site(content, store=store)
    assert first.strings["zh-hant"] and any(r.converted for r in first.reports)
    converted = first.languages.conversions.made  # the texts a load converted
    assert converted > 1
    with opened(tmp_path / "cache") as store:
        second = load_site(content, store=store)
    assert second.languages.conversions.made == 0
    assert second.strings["zh-hant"] == first.strings["zh-hant"]
    bodies = [(r.slug, r.meta["title"], r.body) for r in first.reports if r.lang == "zh-hant"]
    assert [(r.slug, r.meta["title"], r.body) for r in second.reports if r.lang == "zh-hant"] == bodies
    (content / "reports" / "acme-vs-zenith.zh.md").write_text(REPORT_ZH + "\n新的一段。\n", "utf-8")
    with opened(tmp_path / "cache") as store:
        third = load_site(content, store=store)
    assert third.languages.conversions.made == 1  # only the edited text is converted
    assert "新的一段" in next(r.body for r in third.reports if r.lang == "zh-hant")
    assert load_site(content).languages.conversions.made == converted  # without a store, all of it


# A build from the command line of a project made "big", so that it forks: its languages, the
# check of the editors' words beside them, the save of its state.
FORKING_BUILD = """
import sys
from sitegen import cli
from sitegen.assemble import rendering

rendering.PARALLEL_MIN_REPORTS = 1
sys.exit(cli.main(sys.argv[1:]))
"""


def test_a_build_checks_the_words_beside_it_and_says_their_problems(tmp_path):
    """A big site's build checks the editors' words in a process of its own while it renders:
    a warning is said with the build's, at its line; an error (a term a Simplified Chinese
    text avoids) fails the build with its file and line and leaves the last output as it was."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    body = REPORT_ZH + "\n他在幻灯片上给出了这个数字。\n"
    line = body.splitlines().index("他在幻灯片上给出了这个数字。") + 1
    content = write_project(tmp_path, {"site.yaml": THREE, "data/terms.csv": TERMS})
    path = content / "reports" / "acme-vs-zenith.zh.md"
    path.write_text(body, "utf-8")
    out = tmp_path / "out"
    argv = [sys.executable, "-c", FORKING_BUILD, "--content", str(content), "--out", str(out)]
    env = {**os.environ, "SITEGEN_CACHE": str(tmp_path / "cache")}
    root = Path(__file__).resolve().parents[2]

    def run():
        return subprocess.run(argv, env=env, cwd=root, capture_output=True, text=True, timeout=300)

    built = run()
    assert built.returncode == 0, built.stderr
    said = f"content/reports/acme-vs-zenith.zh.md:{line}: warning: zh-hant: '幻燈片': the term list "
    assert said in built.stderr
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    path.write_text(body.replace("他在幻灯片上", "NVIDIA（英伟达）在幻灯片上"), "utf-8")
    failed = run()
    assert failed.returncode == 1
    assert (
        f"content/reports/acme-vs-zenith.zh.md:{line}: '英伟达': the term list (data/terms.csv) "
        "uses 'NVIDIA' for this concept"
    ) in failed.stderr
    assert "Traceback" not in failed.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_strict_makes_the_warning_an_error(tmp_path):
    body = REPORT_ZH + "\n他在幻灯片上给出了这个数字。\n"
    with pytest.raises(ContentError) as caught:
        _warnings(tmp_path, {"reports/acme-vs-zenith.zh.md": body}, strict=True)
    assert any("'幻燈片'" in str(p) for p in caught.value.problems)


def test_curly_quotes_around_chinese_in_an_editors_zh_hant_text_warn(tmp_path):
    own = REPORT_ZH.replace("Acme 更慢，但更便宜。", "Acme 更慢。").replace(
        "## 主要发现", "## 主要發現\n\n他稱之為“半價”，又引了“half the price”。"
    )
    warnings = _warnings(tmp_path, {"reports/acme-vs-zenith.zh-hant.md": own})
    line = own.splitlines().index("他稱之為“半價”，又引了“half the price”。") + 1
    assert warnings == [
        f"content/reports/acme-vs-zenith.zh-hant.md:{line}: warning: zh-hant: "
        "'“半價”': Chinese text in “”; Taiwan quotes with 「」 (『』 inside them)"
    ]


def test_an_avoided_form_warns_in_english_and_is_an_error_in_simplified(tmp_path):
    en = "---\ntitle: Methodology\nsummary: How numbers are made.\n---\nNvidia wrote it.\n"
    assert _warnings(tmp_path / "en", {"pages/methodology.en.md": en}) == [
        "content/pages/methodology.en.md:5: warning: en: 'Nvidia': the term list (data/terms.csv) "
        "uses 'NVIDIA' for this concept"
    ]
    zh = "---\ntitle: 方法说明\nsummary: 数字从何而来。\n---\n英伟达的数字。\n"
    with pytest.raises(ContentError) as caught:
        _warnings(tmp_path / "zh", {"pages/methodology.zh.md": zh})
    assert [str(p) for p in caught.value.problems if "term list" in p.message] == [
        "content/pages/methodology.zh.md:5: '英伟达': the term list (data/terms.csv) uses 'NVIDIA' "
        "for this concept",
        # and what OpenCC makes of it in the Traditional page, on the same line
        "content/pages/methodology.zh.md:5: warning: zh-hant: '輝達': the term list (data/terms.csv) "
        "uses 'NVIDIA' for this concept",
    ]


def test_a_reference_or_address_is_not_checked(tmp_path):
    en = (
        "---\ntitle: Methodology\nsummary: How numbers are made.\n---\n"
        "See [the page](https://example.org/Nvidia) and `Nvidia`.\n"
    )
    assert _warnings(tmp_path, {"pages/methodology.en.md": en}) == []


def test_an_override_file_wins_over_the_conversion(tmp_path):
    content = write_project(
        tmp_path,
        {"site.yaml": THREE, "data/terms.csv": TERMS, "i18n/zh-hant.yaml": "nav.claims: 編輯自訂的查核\n"},
    )
    site = load_site(content)
    assert site.strings["zh-hant"]["nav.claims"] == "編輯自訂的查核"
    assert site.strings["zh-hant"]["nav.reports"] == "報告"  # the rest still converted


# --- the shipped site ----------------------------------------------------------------------------


def test_shipped_zh_hant_pages_have_no_mainland_term_or_quotation_mark(shipped_site):
    """Every zh-Hant page's visible text, charts and tables included (not text marked as another
    language: a source's own title or words), holds no form the term list's avoid-zh-Hant column
    names and no “” around Chinese text."""
    import csv
    from pathlib import Path

    from lxml import html as lhtml

    terms = Path(__file__).resolve().parents[2] / "content" / "data" / "terms.csv"
    with terms.open(encoding="utf-8-sig", newline="") as handle:
        avoid = sorted(
            {
                form.strip()
                for row in csv.DictReader(handle)
                for form in (row.get("avoid-zh-Hant") or "").split(";")
                if form.strip()
            }
        )
    assert "報道" in avoid and "英偉達" in avoid
    pattern = re.compile("|".join(map(re.escape, avoid)) + "|“[^“”]*[\u4e00-\u9fff][^“”]*”")
    found = {}
    pages = sorted((shipped_site / "zh-hant").rglob("*.html"))
    assert len(pages) > 1000
    for path in pages:
        tree = lhtml.fromstring(path.read_bytes())
        for node in tree.xpath("//script|//style|//*[@lang and @lang!='zh-Hant']"):
            node.drop_tree()
        for match in pattern.finditer(tree.text_content()):
            found.setdefault(match.group(0), path.relative_to(shipped_site).as_posix())
    assert found == {}


def test_shipped_zh_hant_punctuation_around_generated_lists(shipped_site):
    """Text the templates put together uses the language's own punctuation: a benchmark's
    metric and its direction in full-width parentheses, a submitter's first and latest round
    followed by a full-width colon and a list joined by 、."""
    bench = (shipped_site / "zh-hant/benchmarks/llama31_405b.html").read_text("utf-8")
    assert "<dt>指標</dt><dd>訓練時間（越低越好）</dd>" in bench
    english = (shipped_site / "en/benchmarks/llama31_405b.html").read_text("utf-8")
    assert "<dt>Metric</dt><dd>Time to train (lower is better)</dd>" in english
    submitter = (shipped_site / "zh-hant/submitters/nvidia.html").read_text("utf-8")
    first = re.search(r"<dt>首次提交</dt><dd>(.*?)</dd>", submitter).group(1)
    assert '">v0.5</a>：<a' in first and "</a>、<a" in first and "</a>, <a" not in first
