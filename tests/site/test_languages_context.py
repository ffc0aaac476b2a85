"""No module state: a site's languages travel as a value (site.languages). Two sites whose
languages differ, loaded and built one after the other in one process, each get their own,
and no module of the generator changes while they are built."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from types import FunctionType, MappingProxyType, ModuleType

import pytest

import sitegen
from sitegen.assemble.pipeline import build
from sitegen.base import languages
from sitegen.content.load import load_site

from project import SITE, TEMPLATES, write_project

# The same two languages by code, but this site's zh is written for Taiwan (its own locale and
# lang attribute): a figure or attribute kept for one site's zh must not reach the other's.
TAIWAN = SITE.replace(
    "languages: [en, zh]\n",
    "languages:\n  - en\n  - {code: zh, lang: zh-Hant, locale: zh_Hant_TW, name: 繁體中文}\n",
)
# What Python itself keeps: a class's slot names, noted when an instance is first pickled, and
# the interpreter's builtins (no module of the package writes them).
PYTHONS = {"__slotnames__", "__builtins__"}


def _import_every_module() -> None:
    """Every module of the package, so that a lazy import is no change (a package gains its
    submodule as an attribute when it is first imported)."""
    for info in pkgutil.walk_packages(sitegen.__path__, "sitegen."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)


def _fingerprint(value, depth: int = 3):
    """What identifies a value: its id and, for a container or a plain object, its contents."""
    if depth == 0 or isinstance(value, (ModuleType, FunctionType, str, bytes, int, float)):
        return id(value)
    if isinstance(value, (dict, MappingProxyType)):
        return id(value), _contents(value, depth)
    if isinstance(value, (list, tuple)):
        return id(value), tuple(_fingerprint(v, depth - 1) for v in value)
    if isinstance(value, (set, frozenset)):
        return id(value), frozenset(id(v) for v in value)
    if isinstance(value, type) or (hasattr(value, "__dict__") and not callable(value)):
        return id(value), _contents(vars(value), depth)
    return id(value)


def _contents(mapping, depth: int) -> tuple:
    return tuple((repr(k), _fingerprint(v, depth - 1)) for k, v in mapping.items() if k not in PYTHONS)


def _module_state() -> dict[tuple[str, str], object]:
    """Every global of every module of the package, and every attribute of its classes."""
    state = {}
    for name, module in list(sys.modules.items()):
        if name != "sitegen" and not name.startswith("sitegen."):
            continue
        for key, value in vars(module).items():
            if key not in PYTHONS:
                state[name, key] = _fingerprint(value)
    return state


@pytest.fixture(scope="module")
def two_sites(tmp_path_factory):
    """(the state before, the state after, and each site's load and output) of two sites
    loaded and built in this process, one after the other."""
    _import_every_module()
    before = _module_state()
    made = {}
    for name, site_yaml in (("mainland", SITE), ("taiwan", TAIWAN)):
        folder = tmp_path_factory.mktemp(name)
        content = write_project(folder, {"site.yaml": site_yaml})
        build(content, TEMPLATES, folder / "out", cache=folder / "cache", processes=False)
        made[name] = (load_site(content), folder / "out")
    return before, _module_state(), made


def test_no_module_of_the_generator_changes_while_two_sites_are_built(two_sites):
    before, after, _ = two_sites
    changed = sorted(f"{module}.{name}" for module, name in before.keys() | after.keys()
                     if before.get((module, name)) != after.get((module, name)))  # fmt: skip
    assert changed == []


def test_two_sites_in_one_process_each_get_their_own_languages(two_sites):
    _, _, made = two_sites
    (mainland, mainland_out), (taiwan, taiwan_out) = made["mainland"], made["taiwan"]
    assert (mainland.languages.get("zh").lang, mainland.languages.get("zh").locale) == (
        "zh-Hans",
        "zh_Hans_CN",
    )
    assert (taiwan.languages.get("zh").lang, taiwan.languages.get("zh").locale) == ("zh-Hant", "zh_Hant_TW")
    assert list(mainland.languages) == list(taiwan.languages) == ["en", "zh"]
    # Zenith's time to train, 20.0 minutes, as each site's zh writes it (CLDR's short unit:
    # 分钟 in zh_Hans_CN, 分鐘 in zh_Hant_TW, the figure against it), and its lang attribute
    first = (mainland_out / "zh" / "reports" / "acme-vs-zenith.html").read_text("utf-8")
    second = (taiwan_out / "zh" / "reports" / "acme-vs-zenith.html").read_text("utf-8")
    assert '<html lang="zh-Hans">' in first and '<html lang="zh-Hant">' in second
    assert "20.0分钟" in first and "20.0分鐘" not in first
    assert "20.0分鐘" in second and "20.0分钟" not in second
    assert 'hreflang="zh-Hant"' in second and 'hreflang="zh-Hant"' not in first


def test_the_known_languages_are_read_only():
    with pytest.raises(TypeError):
        languages.KNOWN["zh"] = languages.KNOWN["en"]  # type: ignore[index]
    assert not hasattr(languages, "use")
