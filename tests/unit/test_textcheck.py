"""The mojibake check scans only suspect lines; it must find exactly what ftfy finds."""
import ftfy.badness
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.content.textcheck import _latin_mojibake, text_problems

# every character ftfy's patterns name, with ASCII, Chinese and full-width punctuation
PATTERN_CHARS = sorted({c for c in ftfy.badness.BADNESS_RE.pattern if ord(c) > 0x7f})
OTHERS = list("aZ .,\n") + list("性，")


@pytest.mark.parametrize("template", ["\n{}{}", "{}{}\n", "{}\n{}", "a\n{}{}", "x.\n{} {}\n，",
                                      "性\n{}{}\na", "{}{}"])
def test_every_pair_of_pattern_characters_around_line_breaks(template):
    chars = PATTERN_CHARS + OTHERS
    differ = [text for a in chars for b in chars for text in [template.format(a, b)]
              if (_latin_mojibake(text) is not None) != ftfy.badness.is_bad(text)]
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
