import datetime as dt

from sitegen.base import fmt
from sitegen.base.languages import KNOWN


def test_dates_follow_each_language():
    day = dt.date(2021, 6, 30)
    assert fmt.date(day, KNOWN["en"]) == "June 30, 2021"
    assert fmt.date(day, KNOWN["zh"]) == "2021年6月30日"


def test_durations_use_short_units():
    assert fmt.duration(28.33, "min", KNOWN["en"]) == "28.3 min"
    assert fmt.duration(28.35, "min", KNOWN["zh"]) == "28.4分钟"
    assert fmt.duration(13.2, "h", KNOWN["zh"]) == "13.2小时"
    # Traditional: Taiwan's unit names, the figure written against them as in Simplified
    # (CLDR's zh_Hant pattern puts a space there; the converted text has none)
    assert fmt.duration(28.35, "min", KNOWN["zh-hant"]) == "28.4分鐘"
    assert fmt.duration(1234.6, "h", KNOWN["zh-hant"]) == "1,235小時"


def test_times_show_three_significant_digits_never_fewer_than_whole_units():
    cases = {
        7.4: "7.40",
        0.412: "0.412",
        0.41249: "0.412",
        123.4: "123",
        1234.6: "1,235",
        9.996: "10.0",
        99.96: "100",
        0.05: "0.0500",
        28.345: "28.3",
        2.675: "2.68",
    }
    assert {v: fmt.time_number(v, KNOWN["en"]) for v in cases} == cases
    assert fmt.time_number(1234.6, KNOWN["zh"]) == "1,235"
    assert fmt.duration(7.4, "min", KNOWN["zh"]) == "7.40分钟"


def test_money_reads_naturally_in_each_language():
    assert fmt.usd(149000, KNOWN["en"]) == "$149,000"
    assert fmt.usd(149000, KNOWN["zh"]) == "14.9万美元"
    assert fmt.usd(300000, KNOWN["zh"]) == "30万美元"
    assert fmt.usd(32450, KNOWN["zh"]) == "3.245万美元"


def test_ratios_percentages_and_precision():
    assert fmt.ratio(1.5643, KNOWN["en"]) == "1.56×"
    assert fmt.ratio(1.5643, KNOWN["zh"]) == "1.56倍"
    assert fmt.percent(23.68, KNOWN["zh"]) == "23.7%"
    assert fmt.number(1234567.891, KNOWN["en"]) == "1,234,567.89"
    assert [fmt.decimals_of(v) for v in (24, 5.67, 1.6, 9.0)] == [0, 2, 1, 0]


def test_a_stated_time_keeps_the_precision_its_source_wrote():
    # "just over 9 minutes" is 9 min, not 9.00; a measured time keeps three significant digits
    assert fmt.quantity(9, "min", KNOWN["en"], fmt.decimals_of(9)) == "9 min"
    assert fmt.quantity(9, "min", KNOWN["zh"], 0) == "9分钟"
    assert fmt.quantity(14.5, "min", KNOWN["en"], 1) == "14.5 min"
    assert fmt.quantity(9, "min", KNOWN["en"]) == "9.00 min"
