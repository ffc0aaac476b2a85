"""The large-language-model report of the shipped site: its figures equal values worked out by
hand from content/data/record/ (the official scores), in every language, and it leads the
reports list."""

import csv

REPORT = "reports/large-language-models-in-the-record.html"


def read(site, lang, path=REPORT):
    return (site / lang / path).read_text(encoding="utf-8")


def test_the_reports_figures_are_the_records(shipped_site):
    en = read(shipped_site, "en")
    # GPT-3 v3.0: 10.940416666666666 min × 3,584 H100 = 39,210.45 accelerator-minutes
    assert ">39,210 accelerator-minutes</a>" in en
    # Llama 3.1 405B, GB200 at 512: 121.0926... min (v5.0, CoreWeave + IBM + NVIDIA) against
    # 84.9400... min (v5.1, NVIDIA): 1.4256, shown as 1.43×
    assert "1.43× as fast (GB200 in v5.1: " in en
    # Llama 2 70B LoRA, MI325X at 8: 21.575 (v5.0) against 20.738 (v5.1): 4.0 % apart, level
    assert "level (MI325X in v5.1: " in en
    zh = read(shipped_site, "zh")
    assert ">39,210加速器分钟</a>" in zh and "速度提高到1.43倍（v5.1的GB200：" in zh
    hant = read(shipped_site, "zh-hant")
    assert ">39,210加速器分鐘</a>" in hant and "持平（v5.1的MI325X：" in hant


def test_the_fastest_chart_data_are_the_records(shipped_site):
    with open(
        shipped_site / "en/reports/charts/large-language-models-in-the-record-1.csv", encoding="utf-8"
    ) as f:
        rows = list(csv.DictReader(f))
    gpt3 = [
        (r["round"], float(r["time_min"]), r["carried_over"]) for r in rows if r["series"] == "GPT-3 175B"
    ]
    # v4.1's fastest GPT-3 is the v4.0 result submitted again (3.4440... min both times)
    assert [(rnd, round(t, 3)) for rnd, t, _ in gpt3] == [
        ("v3.0", 10.94),
        ("v3.1", 3.917),
        ("v4.0", 3.444),
        ("v4.1", 3.444),
    ]
    assert gpt3[-1][2] == "True"


def test_the_report_leads_the_reports_list(shipped_site):
    for lang in ("en", "zh", "zh-hant"):
        index = read(shipped_site, lang, "reports/index.html")
        first = index.find('href="large-language-models-in-the-record.html"')
        assert 0 <= first < index.find('href="graphcore-in-the-whole-record.html"')
