"""One MLPerf result log (bytes) -> one run, for every log era the record holds.

- v0.7 on (`:::MLLOG {json}`, possibly behind rank prefixes or other output on the line):
  the text from the line's last `:::MLLOG ` is parsed, as mlperf_logging's parser does.
- v0.6 (`:::MLL <seconds> <key>: <json>`, single-quoted dicts in some Intel logs); minigo's
  time is the `timestamp` (seconds after run_start) of its `eval_result`.
- v0.5 (`:::MLPv0.5.0 <bench> <seconds> (<file:line>) <key>: <json>`), sometimes behind an
  `INFO:mlperf_compliance::` prefix; run_stop `{"success": true}`, `"true"`, `false` or bare.
- Alibaba's v0.7 V100 logs are `:::MLLOG` with `time_s` (seconds) in place of `time_ms`.
- Alibaba's private v0.6 format (`MLPerf: <bench> [mm/dd/yy HH:MM:SS], <key>`) has no status.

Only the keys the score needs are read (a regex finds their lines; nothing else is parsed).
A run's time is (first run_stop - the last run_start before it), as mlperf_logging's summarizer
queries it. A run fails when run_start or run_stop is missing or corrupt or run_stop's status is
not success; a bare run_stop (v0.5, v0.6) counts as success.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import NamedTuple


class Run(NamedTuple):
    minutes: float | None  # None: the run failed
    reason: str  # why it failed ('' when it did not)
    division: str | None  # submission_division, when the log has one
    benchmark: str | None  # submission_benchmark, when the log has one


MLLOG_RE = re.compile(rb'"key":\s*"(run_start|run_stop|submission_division|submission_benchmark)"')
MLL_RE = re.compile(
    rb":::MLL ([0-9.]+) (run_start|run_stop|eval_result|submission_division"
    rb"|submission_benchmark)\b:?[ \t]*([^\r\n]*)"
)
MLP05_RE = re.compile(
    rb":::MLPv0\.5\.0 (\S+) ([0-9.]+) \([^)\n]*\) (run_start|run_stop)\b:?"
    rb"[ \t]*([^\r\n]*)"
)
PRIVATE_RE = re.compile(rb"MLPerf: (\S+) \[(\d\d/\d\d/\d\d \d\d:\d\d:\d\d)\], (run_start|run_stop)")
STATUS_RE = re.compile(r"""['"]status['"]\s*:\s*['"]?(\w+)""")
STAMP_RE = re.compile(r"""['"]timestamp['"]\s*:\s*([0-9.]+)""")
SUCCESS05_RE = re.compile(r'"success"\s*:\s*"?(\w+)')
TOKEN = b":::MLLOG "


def parse_run(data: bytes) -> Run:
    if TOKEN in data:
        return mllog_run(data)
    if b":::MLL " in data:
        return mll_run(data)
    if b":::MLPv0.5.0 " in data:
        return mlp05_run(data)
    if PRIVATE_RE.search(data):
        return private_run(data)
    return Run(None, "no MLPerf log lines", None, None)


def failed(reason: str, division=None, benchmark=None) -> Run:
    return Run(None, reason, division, benchmark)


def time_span(events: list[tuple[str, float, str]]) -> tuple[float | None, float | None, str]:
    """(start, stop, stop status) of [(key, time, status)]: the first run_stop and the last
    run_start before it, as the summarizer's _query_run_start_stop."""
    start = None
    for key, time, status in events:
        if key == "run_start":
            start = time
        elif key == "run_stop" and start is not None:
            return start, time, status
    return start, None, ""


def run_from_span(events, scale: float, division, benchmark) -> Run:
    start, stop, status = time_span(events)
    if start is None:
        return failed("no run_start", division, benchmark)
    if stop is None:
        return failed("no run_stop", division, benchmark)
    if status != "success":
        return failed(f"run_stop status {status or 'missing'!r}", division, benchmark)
    return Run((stop - start) / scale, "", division, benchmark)


# --- v0.7 on: :::MLLOG {json} ----------------------------------------------------------------


def line_around(data: bytes, start: int, end: int) -> bytes:
    first = data.rfind(b"\n", 0, start) + 1
    last = data.find(b"\n", end)
    return data[first : last if last >= 0 else len(data)]


def mllog_event(line: bytes) -> dict | None:
    """The line's event; its time is `time_ms`, or `time_s` (seconds) where a log writes that
    instead (Alibaba's v0.7 PAI logs: mlperf_logging's parser rejects those lines)."""
    at = line.rfind(TOKEN)
    if at < 0:
        return None
    try:
        event = json.loads(line[at + len(TOKEN) :].decode("latin-1"))
        if not isinstance(event, dict):
            return None
        float(event["time_ms"] if "time_ms" in event else event["time_s"])
        return event
    except (ValueError, KeyError, TypeError):
        return None


def mllog_run(data: bytes) -> Run:
    events: list[tuple[str, float, str]] = []
    facts: dict[str, str] = {}
    units: set[str] = set()
    for match in MLLOG_RE.finditer(data):
        event = mllog_event(line_around(data, match.start(), match.end()))
        key = match.group(1).decode()
        if event is None and key.startswith("run_"):
            return failed(f"corrupt {key} line", facts.get("submission_division"))
        if event is None or event.get("key") != key:
            continue
        if key.startswith("submission_"):
            facts.setdefault(key, str(event.get("value")))
            continue
        meta = event.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        unit = "time_ms" if "time_ms" in event else "time_s"
        units.add(unit)
        events.append((key, float(event[unit]), str(meta.get("status", ""))))
    if len(units) > 1:
        return failed(
            "run_start and run_stop in different time units",
            facts.get("submission_division"),
            facts.get("submission_benchmark"),
        )
    return run_from_span(
        events,
        60.0 if units == {"time_s"} else 60000.0,
        facts.get("submission_division"),
        facts.get("submission_benchmark"),
    )


# --- v0.6: :::MLL <seconds> <key>: <value> ---------------------------------------------------


def eval_timestamp(text: str) -> float | None:
    """eval_result's metadata timestamp (JSON or a single-quoted Python dict)."""
    found = STAMP_RE.search(text)
    return float(found.group(1)) if found else None


def mll_status(key: str, text: str) -> str:
    if key != "run_stop":
        return ""
    found = STATUS_RE.search(text)
    return found.group(1) if found else "success"  # a bare run_stop: success


def mll_value(text: str):
    found = re.search(r'"value"\s*:\s*"?([\w.-]+)', text)
    return found.group(1) if found else None


def mll_run(data: bytes) -> Run:
    events: list = []
    facts: dict[str, str] = {}
    minigo = None
    for match in MLL_RE.finditer(data):
        time, key = float(match.group(1)), match.group(2).decode()
        text = match.group(3).decode("latin-1")
        if key.startswith("submission_"):
            facts.setdefault(key, mll_value(text))
        elif key == "eval_result":
            minigo = eval_timestamp(text) if eval_timestamp(text) is not None else minigo
        else:
            events.append((key, time, mll_status(key, text)))
    division, benchmark = facts.get("submission_division"), facts.get("submission_benchmark")
    if benchmark == "minigo":
        return minigo_run(events, minigo, division)
    return run_from_span(events, 60.0, division, benchmark)


def minigo_run(events, seconds: float | None, division) -> Run:
    """v0.6 minigo: the time is eval_result's timestamp; a run_stop, if any, must succeed."""
    if seconds is None:
        return failed("no eval_result with a timestamp", division, "minigo")
    stops = [status for key, _, status in events if key == "run_stop"]
    if stops and stops[0] != "success":
        return failed(f"run_stop status {stops[0]!r}", division, "minigo")
    return Run(seconds / 60.0, "", division, "minigo")


# --- v0.5: :::MLPv0.5.0 <bench> <seconds> (<file:line>) <key>: <value> -----------------------


def mlp05_status(key: str, text: str) -> str:
    if key != "run_stop" or not text.strip():
        return "success"
    found = SUCCESS05_RE.search(text)
    return "success" if found and found.group(1).lower() == "true" else "failed"


def mlp05_run(data: bytes) -> Run:
    events, benchmark = [], None
    for match in MLP05_RE.finditer(data):
        benchmark = benchmark or match.group(1).decode("latin-1")
        key = match.group(3).decode()
        events.append((key, float(match.group(2)), mlp05_status(key, match.group(4).decode("latin-1"))))
    return run_from_span(events, 60.0, None, benchmark)


# --- Alibaba's private v0.6 format ----------------------------------------------------------


def private_run(data: bytes) -> Run:
    events, benchmark = [], None
    for match in PRIVATE_RE.finditer(data):
        benchmark = benchmark or match.group(1).decode("latin-1")
        when = dt.datetime.strptime(match.group(2).decode(), "%m/%d/%y %H:%M:%S")
        events.append((match.group(3).decode(), when.replace(tzinfo=dt.UTC).timestamp(), "success"))
    return run_from_span(events, 60.0, None, benchmark)
