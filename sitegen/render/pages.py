"""The renderers of the site's own page kinds (render/kinds.py declares every kind and names its
renderer; the record's are in render/record/). Each returns {output path: bytes} for one
language."""

from __future__ import annotations

from markupsafe import Markup

from sitegen.base import npm, urls
from sitegen.content.model import Report, Site
from sitegen.derive.model import Model
from sitegen.render import blocks, home
from sitegen.render.charts import blocks as charts
from sitegen.render.charts import progress as record_chart
from sitegen.render.charts import scale as scale_chart
from sitegen.render.charts.chart_block import chart_block
from sitegen.render.markup import render_body
from sitegen.render.page import Page
from sitegen.render.references import rich_text
from sitegen.render.theme import Strings, Theme, absolute, base_context, base_url, render_template


def _page(
    theme: Theme,
    site: Site,
    lang: str,
    t: Strings,
    path: str,
    template: str,
    title: str,
    crumbs: tuple[tuple[str, str], ...] | list[tuple[str, str]] = (),
    **extra,
) -> dict[str, bytes]:
    context = base_context(site, lang, path, t, title, extra.get("model"))
    # a trail only below the top pages
    context["breadcrumbs"] = [(t("nav.home"), urls.home(lang)), *crumbs] if crumbs else []
    context.update(extra)
    return {path: render_template(theme, template, context)}


def _attribution(site: Site, round_ids) -> list[dict]:
    """The rounds of the MLPerf record whose results a page shows (credited in its footer)."""
    return [site.rounds[r] for r in site.in_round_order(round_ids)]


def record_summary(model: Model, benchmark_id: str) -> list:
    """Each round of a benchmark with its closed-division headline (Model.headlines)."""
    return [(round_id, model.headline(round_id, benchmark_id)) for round_id in model.rounds_of(benchmark_id)]


LONG_TABLE = 40  # rows of a results block before it is called too long


def block_renderer(site: Site, t: Strings):
    def render(kind, params, page: Page, line: int) -> str:
        if kind == "chart":
            return chart_block(page.model, t, params, page, line)
        if kind != "results":
            return page.fail(line, f"unknown block '{kind}'")
        rows = page.model.block_rows(params, page, line)
        if rows is None:
            return ""
        if len(rows) > LONG_TABLE:
            page.warn(
                line,
                f"results block: {len(rows)} rows, more than a reader takes in "
                f"({LONG_TABLE}); narrow it with round, division or systems",
            )
        return blocks.results_table(
            page.model, rows, page, t, params.get("caption", "")
        ) + blocks.selection_note(site, t, rows, page)

    return render


def body_html(
    site: Site, report: Report, path: str, model: Model, t: Strings, bodies, problems: list
) -> tuple[Markup, list, Page]:
    """The report's body as HTML, from the cache when neither it nor any data changed."""
    if report.pending:
        return Markup(""), [], Page(site, report.lang, path, model)
    rel = report.source.rel if report.source else ""
    page = Page(site, report.lang, path, model, rel, report.body_line)
    key = bodies.cache.key(path, rel, str(report.body_line), report.body)
    cached = bodies.cache.get(key)
    if cached is None or len(cached) != 5:
        with site.reads.collect() as reads:  # what the body read, said again on a hit
            html, toc = render_body(bodies.md, report.body, page, block_renderer(site, t), bodies.cache)
        cached = (html, toc, page.files, page.has_charts, frozenset(reads))
        if not page.problems and page.cacheable:  # warnings are said again on every build
            bodies.cache.put(key, cached)
    problems.extend(page.problems)
    html, toc, page.files, page.has_charts, reads = cached
    site.reads.replay(reads)
    return Markup(html), toc, page


def report_page(theme, site, lang, t, report: Report, model: Model, bodies, problems):
    path = urls.report(lang, report.slug)
    html, toc, page = body_html(site, report, path, model, t, bodies, problems)
    crumbs = [(t("nav.reports"), urls.reports(lang))]
    rounds = [s.removeprefix("mlperf-training-") for s in report.meta.get("sources") or []]
    findings = _findings(site, report, path, model, problems)
    files = _page(
        theme,
        site,
        lang,
        t,
        path,
        "report.html",
        report.title,
        crumbs,
        report=report,
        body=html,
        toc=toc,
        has_charts=page.has_charts,
        findings=findings,
        attribution=_attribution(site, rounds),
        claims=[model.claims[c] for c in report.meta.get("claims") or []],
        sources=[site.get("sources", s) for s in report.meta.get("sources") or []],
        model=model,
        **_shared_as(site, lang, report.meta.get("summary"), article=True, date=report.date),
    )
    return {**page.files, **files}


def plain_page(theme, site, lang, t, report: Report, model: Model, bodies, problems):
    path = f"{lang}/{report.slug}.html"
    html, toc, page = body_html(site, report, path, model, t, bodies, problems)
    files = _page(
        theme,
        site,
        lang,
        t,
        path,
        "page.html",
        report.title,
        [],
        report=report,
        body=html,
        toc=toc,
        has_charts=page.has_charts,
        model=model,
        **_shared_as(site, lang, report.meta.get("summary")),
    )
    return {**page.files, **files}


def _shared_as(site: Site, lang: str, description: str | None, article: bool = False, date=None) -> dict:
    """What a link to the page shows when it is shared (templates/_meta.html): the page's own
    description, else the site's tagline; a report is an article, with its date."""
    return {
        "share_description": description or site.config["tagline"][lang],
        "og_type": "article" if article else "website",
        "published": date.isoformat() if article and date else None,
    }


def _findings(site, report: Report, path: str, model: Model, problems: list | None = None) -> list[Markup]:
    """A report's `findings` (front matter) with their [[...]] figures computed and linked
    from `path`; problems (a bad reference) are reported against the report's file."""
    if report.pending or not report.meta.get("findings"):
        return []
    page = Page(site, report.lang, path, model, report.source.rel if report.source else "", 1)
    found = [rich_text(text, page) for text in report.meta["findings"]]
    if problems is not None:
        problems.extend(page.problems)
    return found


def home_page(theme, site, lang, t, model: Model):
    verdicts = model.verdict_counts
    reports = site.reports_in(lang)
    featured = [r for r in reports if r.meta.get("featured")] or reports[:3]
    path = urls.home(lang)
    # The three most recent findings: the first finding of each of the newest reports with any.
    recent = []
    for report in reports:  # newest first
        found = _findings(site, report, path, model)
        if found:
            recent.append((report, found[0]))
        if len(recent) == 3:
            break
    record = home.record_context(model, t, lang, path)
    context = dict(
        reports=reports[:5],
        featured=featured,
        verdicts=verdicts,
        tagline=site.config["tagline"][lang],
        recent=recent,
        **record,
        # the home page shows official results: credited like every such page
        attribution=_attribution(site, site.rounds) if record["latest_round"] else [],
        # the record in one click each: every round and benchmark page, and the
        # indexes of submitters and accelerators (a result is at most 3 clicks away)
        record_rounds=list(reversed(site.rounds)) if site.rounds else [],
        record_benchmarks=[b for b in site.table("benchmarks") if site.rounds and model.rounds_of(b["id"])],
    )
    return _page(
        theme, site, lang, t, urls.home(lang), "home.html", site.config["title"][lang], **context, model=model
    )


def reports_index(theme, site, lang, t, model: Model):
    return _page(
        theme,
        site,
        lang,
        t,
        urls.reports(lang),
        "reports.html",
        t("nav.reports"),
        [],
        reports=site.reports_in(lang),
        model=model,
    )


def system_page(theme, site, lang, t, system: dict, model: Model):
    """A curated system: its facts, and the results of the official system descriptions
    data/mlperf_systems.yaml says it is."""
    index = model.index
    descriptions, results = model.product(system["id"])
    claims = [c for c in model.claims.values() if system["id"] in claim_systems(model, c.claim)]
    path = urls.system(lang, system["id"])
    return _page(
        theme,
        site,
        lang,
        t,
        path,
        "system.html",
        system["name"][lang],
        [(t("nav.systems"), urls.systems(lang))],
        system=system,
        **_shared_as(site, lang, system["description"][lang] if system.get("description") else None),
        results=results,
        descriptions=descriptions,
        index=index,
        system_label=model.chips.system_label,
        claims=claims,
        reports=site.reports_citing("systems", system["id"], lang),
        attribution=_attribution(site, [r["round"] for r in results]),
        comparisons=[c for c in model.comparisons if system["id"] in (c.left, c.right)],
        model=model,
    )


def claim_systems(model: Model, claim: dict) -> set[str]:
    """The systems a claim's check names: those of its results, and those it names itself."""
    check, found = claim["check"], set()
    for key in ("result", "baseline"):
        result = model.system_results.get(check.get(key, ""))
        if result:
            found.add(result["system"])
    found.update(check.get(k) for k in ("system", "price", "baseline_price") if check.get(k))
    if check["kind"] == "spec_ratio":
        found.add(check["baseline"])
    return found


def benchmarks_index(theme, site, lang, t, model: Model):
    return _page(
        theme,
        site,
        lang,
        t,
        urls.benchmarks(lang),
        "benchmarks.html",
        t("nav.benchmarks"),
        [],
        benchmarks=sorted(site.table("benchmarks"), key=lambda b: b["id"]),
        model=model,
    )


def benchmark_page(theme, site, lang, t, benchmark: dict, model: Model):
    """A benchmark: its task and target, then from the record the fastest closed result of
    each round, the progress chart, the scale chart and links to every leaderboard."""
    path = urls.benchmark(lang, benchmark["id"])
    files: dict[str, bytes] = {}
    progress = Markup(record_chart.progress_figure(model, t, lang, benchmark, path))
    if progress:
        files[charts.BUNDLE] = npm.script(npm.VEGA)
    rounds = model.rounds_of(benchmark["id"])
    scale = Markup(scale_chart.scale_figure(model, t, lang, path, benchmark, rounds, files) if rounds else "")
    summary = record_summary(model, benchmark["id"])
    return (
        _page(
            theme,
            site,
            lang,
            t,
            path,
            "benchmark.html",
            benchmark["name"][lang],
            [(t("nav.benchmarks"), urls.benchmarks(lang))],
            benchmark=benchmark,
            progress=progress,
            scale_chart=scale,
            has_charts=bool(progress),
            summary=summary,
            tunit=model.figures.throughput_unit(model.throughput_of(h.best) for _, h in summary if h.best),
            band=model.figures.noise_band(benchmark),
            index=model.index,
            attribution=_attribution(site, rounds),
            reports=site.reports_citing("benchmarks", benchmark["id"], lang),
            model=model,
        )
        | files
    )


def sources_page(theme, site, lang, t, model: Model | None = None):
    ordered = sorted(site.table("sources"), key=lambda s: (s["kind"], str(s.get("date")), s["id"]))
    return _page(
        theme,
        site,
        lang,
        t,
        urls.sources(lang),
        "sources.html",
        t("nav.sources"),
        [],
        sources=ordered,
        model=model,
    )


def glossary_page(theme, site, lang, t, model: Model | None = None):
    terms = sorted(site.table("glossary"), key=lambda g: g["term"][lang].lower())
    return _page(
        theme,
        site,
        lang,
        t,
        urls.glossary(lang),
        "glossary.html",
        t("nav.glossary"),
        [],
        terms=terms,
        model=model,
    )


def not_found_page(theme, site, lang, t, model: Model | None = None):
    return _page(
        theme, site, lang, t, f"{lang}/404.html", "404.html", t("404.title"), noindex=True, model=model
    )  # served for any missing page: never a page of its own


def chooser_page(theme, site):
    """The root index.html: pick a language, no JavaScript needed."""
    choices = [
        (
            lang,
            site.languages.html_lang(lang),
            site.config["title"][lang],
            site.config["tagline"][lang],
            urls.home(lang),
        )
        for lang in site.languages
    ]
    default = site.config["default_language"]
    context = {
        "choices": choices,
        "html_lang": site.languages.html_lang(default),
        "names": {language.code: language.name for language in site.languages.all},
        "title": site.config["title"][default],
        "path": "index.html",
        "link": lambda target: urls.relative("index.html", target),
        "asset": lambda name: urls.asset(name),
        "base_url": site.config.get("base_url"),
        # with a base URL, the alternates are absolute (search engines ignore relative ones)
        "alternate": lambda target: absolute(site, target) if base_url(site) else target,
        "description": site.config["tagline"][default],
    }
    return {"index.html": render_template(theme, "chooser.html", context)}


def status_page(theme, site, lang, t, gaps, model: Model | None = None):
    """The editors' translation status; reachable by its address, not from the navigation."""
    return _page(
        theme,
        site,
        lang,
        t,
        f"{lang}/editors/status.html",
        "status.html",
        t("status.title"),
        [],
        gaps=gaps,
        noindex=True,
        model=model,
    )
