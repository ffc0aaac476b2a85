"""Random text into every reader: nothing escapes but a clean, located problem."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.base.errors import Problems
from sitegen.content.readers import read_csv, read_markdown, read_yaml
from sitegen.derive.model import build as build_model
from sitegen.render.markup import new_markdown, render_body
from sitegen.render.page import Page

from project import write_project

ANY_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=300)
YAMLISH = st.text(st.sampled_from(list("ab:- \n\t[]{}\"'#&*!|>%@`,?0123456789中文")), max_size=200)
SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def read_with(reader, tmp_path: Path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    problems = Problems(tmp_path)
    result = reader(path, problems)
    for problem in problems.items:
        assert problem.path.endswith(name) and problem.message
    return result, problems


@SETTINGS
@given(text=st.one_of(ANY_TEXT, YAMLISH))
def test_yaml_reader_never_raises(tmp_path, text):
    result, problems = read_with(read_yaml, tmp_path, "t.yaml", text.encode("utf-8"))
    syntax = [p for p in problems.errors if p.message.startswith("YAML")]
    if syntax:  # a syntax error gives no data, and says where it is
        assert result is None
        assert all(p.line for p in syntax if "syntax" in p.message)


@SETTINGS
@given(data=st.binary(max_size=200))
def test_any_bytes_give_a_result_or_a_problem(tmp_path, data):
    result, problems = read_with(read_yaml, tmp_path, "b.yaml", data)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        assert result is None
        messages = [p.message for p in problems.errors]
        assert len(messages) == 1 and messages[0].endswith("is not UTF-8; save the file as UTF-8")


@SETTINGS
@given(text=st.one_of(ANY_TEXT, st.text(st.sampled_from(list('a,"\n\r;中 ')), max_size=200)))
def test_csv_reader_never_raises(tmp_path, text):
    result, _ = read_with(read_csv, tmp_path, "t.csv", text.encode("utf-8"))
    assert result is None or all("__line__" in row for row in result)


@SETTINGS
@given(front=YAMLISH, body=ANY_TEXT)
def test_front_matter_reader_never_raises(tmp_path, front, body):
    result, problems = read_with(read_markdown, tmp_path, "r.en.md", f"---\n{front}\n---\n{body}".encode())
    # either (front matter, body, line, key lines), or at least one located problem
    if result is None:  # never dropped silently
        assert problems.errors
    else:
        assert isinstance(result[0], dict) and result[2] >= 3


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    """The sample site and its model, loaded once: each example draws a body on a new page."""
    from sitegen.content.load import load_site

    site = load_site(write_project(tmp_path_factory.mktemp("readers")))
    return site, build_model(site)


@SETTINGS
@given(body=st.one_of(ANY_TEXT, st.text(st.sampled_from(list("[]:result#`<>/script \n中")), max_size=200)))
def test_markdown_body_never_raises_and_never_emits_script(loaded, body):
    site, model = loaded
    page = Page(site, "en", "en/reports/x.html", model, "x.en.md", 1)
    html, _ = render_body(new_markdown, body, page, lambda *a: "")
    assert "<script" not in html.lower()
    assert all(p.line and p.message for p in page.problems)
