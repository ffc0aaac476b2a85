"""The mojibake check scans only suspect lines; it must find exactly what ftfy finds."""

import ftfy.badness
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.content.textcheck import _latin_mojibake, text_problems

# every character ftfy's patterns name, with ASCII, Chinese and full-width punctuation
PATTERN_CHARS = sorted({c for c in ftfy.badness.BADNESS_RE.pattern if ord(c) > 0x7F})
OTHERS = list("aZ .,\n") + list("性，")


@pytest.mark.parametrize(
    "template", ["\n{}{}", "{}{}\n", "{}\n{}", "a\n{}{}", "x.\n{} {}\n，", "性\n{}{}\na", "{}{}"]
)
def test_every_pair_of_pattern_characters_around_line_breaks(template):
    chars = PATTERN_CHARS + OTHERS
    differ = [
        text
        for a in chars
        for b in chars
        for text in [template.format(a, b)]
        if (_latin_mojibake(text) is not None) != ftfy.badness.is_bad(text)
    ]
    assert differ == []


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PATTERN_CHARS + OTHERS), max_size=12).map("".join))
def test_line_scan_agrees_with_a_whole_text_scan(text):
    assert (_latin_mojibake(text) is not None) == ftfy.badness.is_bad(text)


def test_mojibake_is_reported_on_its_line():
    text = "# 标题\n\nGraphcore’s IPU，性能。\n\nThe cafÃ© result\n"
    assert text_problems(text) == [(5, "mojibake in 'The café result': fix the encoding")]


def test_clean_chinese_and_english_pass():
    assert text_problems("IPU-POD16 的训练时间为 28.3 分钟，比 DGX A100 “更快”。\nPlain — text.\n") == []


# --- superlatives, negatives and comparisons about the record (unreferenced_claims) -----------

import build  # noqa: E402
from sitegen.content.textcheck import unreferenced_claims  # noqa: E402

from project import REPORT_EN, REPORT_ZH, write_project  # noqa: E402
from record_sample import on_record, write_record_project  # noqa: E402

WORDING = (
    "outside a reference: a superlative, negative or comparison about the record is "
    "written with [[{kind}:...]] in its sentence (or quotes a claim with [[claim:...]]), "
    "or not at all"
)


def test_a_superlative_outside_a_reference_is_found_on_its_line():
    text = "Acme ran BERT.\n\nIt was the fastest system\nof the round.\n"
    assert unreferenced_claims(text) == [(3, "'fastest' " + WORDING.format(kind="fastest"))]


def test_a_superlative_in_a_sentence_with_the_reference_that_computes_it_passes():
    assert unreferenced_claims("The fastest of the round was [[fastest:v1.0/bert/closed]].") == []
    assert unreferenced_claims("Its first round: [[rounds:Acme]].") == []
    # a vendor's own superlative, quoted as its claim
    assert unreferenced_claims("Acme said it was the fastest, [[claim:c-ppr]] ahead.") == []


def test_a_reference_in_another_sentence_does_not_cover_a_word():
    text = "The fastest was [[fastest:v1.0/bert/closed]]. The first was Acme."
    assert unreferenced_claims(text) == [(1, "'first' " + WORDING.format(kind="rounds"))]


def test_negatives_and_typed_ratios_are_never_the_editors_own():
    # [[equal_scale:...]] writes "the record has no ..." itself; prose around it must not
    text = (
        "At its size there is nothing to set beside it: [[equal_scale:x/Zenith]].\nAcme was 1.6× as fast.\n"
    )
    assert unreferenced_claims(text) == [
        (1, "'nothing' " + WORDING.format(kind="claim")),
        (2, "'1.6×' " + WORDING.format(kind="claim")),
    ]


def test_chinese_words_are_found_and_the_scoring_rule_is_not_a_ranking():
    text = "去掉最快和最慢的一次运行。\n这是本轮最快的系统，也是唯一的一个。\n"
    assert unreferenced_claims(text) == [
        (2, "'唯一' " + WORDING.format(kind="fastest")),
        (2, "'最快' " + WORDING.format(kind="fastest")),
    ]
    assert unreferenced_claims("the fastest and the slowest run are dropped") == []


def test_mlperf_without_its_mark_is_found_outside_references_and_links():
    text = "MLPerf® Training v1.0, see [the logs](https://example.org/MLPerf).\nMLPerf rules.\n"
    assert unreferenced_claims(text) == [
        (
            2,
            "'MLPerf' without '®': MLCommons' messaging "
            "guidelines want the mark on every use (write MLPerf®)",
        )
    ]


R = "content/reports/acme-vs-zenith.en.md"


def test_check_warns_at_the_line_and_strict_fails(tmp_path, monkeypatch, capsys, warm_cache):
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content = write_project(
        tmp_path, {"reports/acme-vs-zenith.en.md": REPORT_EN + "\nZenith is the fastest system.\n"}
    )
    line = (REPORT_EN + "\n").count("\n") + 1
    warning = f"{R}:{line}: warning: 'fastest' " + WORDING.format(kind="fastest")
    assert build.main(["check", "--content", str(content)]) == 0
    assert capsys.readouterr().err.splitlines() == [warning]
    assert build.main(["check", "--strict", "--content", str(content)]) == 1
    assert capsys.readouterr().err.splitlines() == [warning, "check failed: 1 problem(s)"]


def test_check_accepts_the_word_beside_its_reference(tmp_path, monkeypatch, capsys, warm_cache):
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content = write_record_project(
        tmp_path,
        {
            "reports/acme-vs-zenith.en.md": on_record(REPORT_EN)
            + "\nThe fastest was [[fastest:v1.0/bert/closed]].\n",
            "reports/acme-vs-zenith.zh.md": on_record(REPORT_ZH)
            + "\n本轮最快的是[[fastest:v1.0/bert/closed]]。\n",
        },
    )
    assert build.main(["check", "--strict", "--content", str(content)]) == 0
    assert capsys.readouterr().err == ""


def test_a_tables_header_is_said_by_the_references_in_its_rows():
    table = (
        "| Round | Fastest closed-division BERT |\n|---|---|\n"
        "| v1.0 | [[fastest:v1.0/bert/closed]] |\n\nThe fastest came later.\n"
    )
    assert unreferenced_claims(table) == [(5, "'fastest' " + WORDING.format(kind="fastest"))]


def test_a_fenced_block_is_data_and_at_scale_computes_a_fastest():
    # the LLM report's chart block names its metric 'fastest': a field, not a sentence
    assert unreferenced_claims("Text.\n\n```chart\nmetric: fastest\n```\n") == []
    assert unreferenced_claims("The fastest H100 at 8, [[at_scale:a/8/x@v1/x@v2]].") == []
    assert unreferenced_claims("The fastest H100 at 8, [[acc_minutes:a]].")[0][0] == 1


def test_taiwan_words_that_hold_a_superlative_character_pass():
    # 最佳化 is Taiwan's "optimisation"; the scoring rule's fastest and slowest run, written
    # in Traditional characters, is no ranking either
    assert unreferenced_claims("這一版的編譯器最佳化讓時間縮短。") == []
    assert unreferenced_claims("去掉最快與最慢的執行後取平均。") == []
    assert unreferenced_claims("這是最佳的系統。") == [(1, "'最佳' " + WORDING.format(kind="claim"))]
