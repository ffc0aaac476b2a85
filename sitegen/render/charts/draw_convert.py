"""Chart specs drawn to SVG at build time (vl-convert), and both kept in the build's store
(table `charts`): the specs keyed by what they are made of, the drawings by the spec, the
narrow layout's width by the drawing. Deleting them changes nothing but the build time;
without a store (None) everything is made again.

vl_convert is imported inside the functions, so a build without a chart block never imports it."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re

from sitegen.base.cache import code_digest, version_of
from sitegen.base.store import Store, kept_text
from sitegen.render.charts.draw import INK, NARROW_FIT, _with_value_text, build_spec, narrow_size

TABLE = "charts"


def _vl_version(spec: dict) -> str:
    match = re.search(r"/v(\d+\.\d+)", spec.get("$schema", ""))
    return match.group(1) if match else "6.4"


def _convert(spec: dict, store: Store | None) -> str:
    """vl-convert's SVG for a spec (the slow step: counted in the store's work)."""
    import vl_convert

    if store is not None:
        store.work["charts drawn"] += 1
    return vl_convert.vegalite_to_svg(spec, vl_version=_vl_version(spec))


def spec_key(spec: dict, store: Store | None) -> str:
    """A drawing's key: its spec and the drawing library's version (as the store remembers the
    libraries' versions: importlib.metadata took 0.01 s in each process that drew)."""
    text = json.dumps(spec, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(f"{version_of('vl-convert-python', store)}\n{text}".encode()).hexdigest()


def _cached(store: Store | None, name: str, make) -> str:
    """Text from the store, or made and stored there (a damaged entry is made again, never
    published; `check`'s read-only store keeps nothing)."""
    return kept_text(store, TABLE, name, make)


def svg_width(svg: str) -> float:
    match = re.search(r'<svg[^>]*\bwidth="([\d.]+)"', svg)
    return float(match.group(1)) if match else 0.0


# the plan's fields that build_spec reads (not the result records, the caption or the sources)
SPEC_FIELDS = (
    "lang",
    "language",
    "metric",
    "kind",
    "rows",
    "order",
    "rounds",
    "series_order",
    "looks",
    "division_names",
    "both_divisions",
    "axis_title",
    "axis_format",
    "title",
    "text",
    "tooltip",
)


# the fields of a plan's rows that build_spec copies into the spec's data and reads nowhere else
# (tests/site/test_charts.py changes each and compares): the cached specs are keyed without them and
# get the rows' own values back, so editing a result's framework builds no spec
PASSED_THROUGH = ("framework", "source", "result")


def specs(plan, store: Store | None) -> tuple[dict, dict]:
    """The wide and the narrow spec of a plan (from the cache when drawn before)."""
    made = {name: getattr(plan, name) for name in SPEC_FIELDS}
    made["language"] = dataclasses.astuple(plan.language)  # its facts, not only its code
    made["rows"] = [{k: v for k, v in row.items() if k not in PASSED_THROUGH} for row in plan.rows]
    wide, narrow = cached_specs(store, {"plan": made}, lambda: [build_spec(plan), narrow_spec(plan, store)])
    values = json.loads(json.dumps(_with_value_text(plan), ensure_ascii=False))
    return {**wide, "data": {**wide["data"], "values": values}}, {
        **narrow,
        "data": {**narrow["data"], "values": values},
    }


def cached_specs(store: Store | None, inputs: dict, make) -> list:
    """make()'s list of specs, kept in the store keyed by what they are made of: `inputs` (every
    value the specs are built from), the generator's code and its libraries' versions (the
    narrow layout is measured on vl-convert's drawing). A page drawn again with the same data (a
    report whose text changed, a home page with a new report) neither imports altair nor builds
    the specs again. Both ways they come from the JSON text: a cached and a fresh build agree."""
    key = hashlib.sha256(
        (
            code_digest(store) + "\n" + json.dumps(inputs, sort_keys=True, ensure_ascii=False, default=str)
        ).encode("utf-8")
    ).hexdigest()
    text = _cached(
        store,
        key + ".specs.json",
        lambda: json.dumps(_made(make, store), ensure_ascii=False, separators=(",", ":")),
    )
    return json.loads(text)


def _made(make, store: Store | None) -> list:
    """make()'s specs, counted in the store's work."""
    if store is not None:
        store.work["chart specs built"] += 1
    return make()


def narrow_spec(plan, store: Store | None) -> dict:
    """The phone layout's spec of a plan (fitted)."""
    return fitted(store, lambda size: build_spec(plan, size=size))


def fitted(store: Store | None, make) -> dict:
    """The phone layout's spec, make(size): its plot narrowed until the whole drawing (axis
    labels and legend included) fits NARROW_FIT px. The width found is kept in the store keyed
    by the drawing (static(): a change to a field only the tooltips show, such as a result's
    framework, needs no new measuring) and by the rule that found it (FIT_RULE). Each width's
    spec is made once: the one the measuring ends on is the one returned (building a spec
    with altair costs about a third of a drawing)."""
    made: dict[int, dict] = {}

    def at(width: int) -> dict:
        if width not in made:
            made[width] = make(narrow_size(width))
        return made[width]

    key = f"{spec_key(static(at(200)), store)}.fit-{FIT_RULE}"
    return at(int(_cached(store, key, lambda: str(_fit(store, at)))))


# The plot is narrowed by the drawing's excess over NARROW_FIT and FIT_SLACK px more. The
# parts beside the plot (tick labels, a bar's value text past its end) do not shrink with it
# exactly: with 1 px, 77 of the 136 charts a data edit redraws on the benchmark's synthetic
# site came out 1 px too wide (289) and were drawn a third time; with 3 px, 1 of 60 sampled
# is (drawings end 0-3 px short of NARROW_FIT instead of 0-1). FIT_RULE is in the store's key,
# so a width found by another rule is never reused: a cold build and a rebuild agree.
FIT_SLACK = 3
FIT_RULE = f"slack{FIT_SLACK}"


def _fit(store: Store | None, at) -> int:
    """The plot width at which the drawing of at(width) fits NARROW_FIT px, from 200 down."""
    width = 200
    for _ in range(4):
        excess = svg_width(raw_svg(at(width), store)) - NARROW_FIT
        if excess <= 0 or width <= 80:
            return width
        width = max(80, int(width - excess - FIT_SLACK))
    return width


def static(spec: dict) -> dict:
    """The spec as the static SVG draws it: no tooltips (only the interactive view shows them),
    in the data only the fields something else names (a field only a tooltip shows moves no
    mark), and no ARIA texts on the marks (the page hides the SVG from screen readers: the
    figure's label and its data table say what it shows). A change to a tooltip's field alone
    (a result's framework) leaves it as it was, so nothing is drawn again."""

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "tooltip"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    shape = strip({k: v for k, v in spec.items() if k != "data"})
    named = json.dumps(shape, ensure_ascii=False)
    rows = (spec.get("data") or {}).get("values")
    if rows is not None:
        keys = {key for row in rows for key in row}
        keep = {key for key in keys if re.search(rf"\b{re.escape(key)}\b", named)}
        shape["data"] = {
            **spec["data"],
            "values": [{k: v for k, v in row.items() if k in keep} for row in rows],
        }
    elif "data" in spec:
        shape["data"] = spec["data"]
    shape["config"] = {**shape.get("config", {}), "aria": False}
    return shape


def raw_svg(spec: dict, store: Store | None) -> str:
    """vl-convert's drawing of the spec's static() form (kept in the store by that form)."""
    drawn = static(spec)
    return _cached(store, spec_key(drawn, store) + ".svg", lambda: _convert(drawn, store))


def page_svg(spec: dict, chart_id: str, store: Store | None) -> str:
    """The SVG for a page: theme-following text colour, ids unique to the chart."""
    svg = raw_svg(spec, store).replace(f'="{INK}"', '="currentColor"')
    svg = re.sub(r'\bid="([^"]+)"', rf'id="{chart_id}-\1"', svg)
    svg = re.sub(r'url\(#([^)]+)\)', rf'url(#{chart_id}-\1)', svg)
    svg = re.sub(r'href="#([^"]+)"', rf'href="#{chart_id}-\1"', svg)
    root = svg[: svg.index(">") + 1]
    if 'class="' in root:
        new_root = root.replace('class="', 'class="chart-svg ', 1)
    else:
        new_root = root.replace("<svg ", '<svg class="chart-svg" ', 1)
    new_root = new_root.replace("<svg ", '<svg focusable="false" aria-hidden="true" ', 1)
    return new_root + svg[len(root) :]
