"""A report's ```chart block: a metric over the whole record (record_blocks.py), or a plan of
named systems (derive/chart_plan.py) drawn by blocks.py. Here, above both, so that neither
imports the other to choose."""

from __future__ import annotations

from sitegen.derive.model import BadBlock, Model
from sitegen.render import blocks
from sitegen.render.charts import record_blocks
from sitegen.render.charts.blocks import figure
from sitegen.render.page import Page


def chart_block(model: Model, t, params: dict, page: Page, line: int) -> str:
    """HTML for a ```chart block; a mistake goes to page.fail with the block's line."""
    if params.get("metric") in record_blocks.METRICS:  # over the whole record (record_blocks.py)
        return record_blocks.record_chart(model, t, params, page, line)
    try:
        plan = model.plan_chart(t, params, page.lang)
    except BadBlock as exc:
        return page.fail(line, f"chart block: {exc}")
    return figure(model.site, t, plan, page) + blocks.selection_note(model.site, t, plan.results, page)
