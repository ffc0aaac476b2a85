"""Results of the record that are not new results: carried over from an earlier round, copied
into a second folder of the same round, or short of the logs their round's rules require.

- The same runs: two results of one benchmark (the benchmark id, which already splits a name
  reused for another model or target: `ssd` to v1.1, `retinanet` from v2.0) whose run times are
  the same multiset, compared exactly as the record stores them (full precision, a failed run
  as null). Exact equality, not a tolerance: every run time is computed by the same code from
  the logs' millisecond timestamps, so a repeat gives bit-identical numbers whatever its folder
  or file names, while independent runs of the whole record share at most one time of ten by
  coincidence (grouping at six significant digits instead finds the same 181 groups as exact
  equality). A result needs two converged runs to be compared at all.
- Carried over: a result whose runs are the same as a result of an earlier round; it names the
  first such result (chains resolve to the first round).
- Copy: a result whose runs (or byte-identical logs) are those of another result of the same
  round. The original is the one whose folder sits nearest the top of the repository (fewest
  path parts: `Habana/results/X/bert` before `Habana/results/X/resnet/bert`), then the first by
  id (`smc-…` before `smc-ac-power-…`): a stable rule that needs no judgement.
- Short (content/scores.py, when the record loads): a result with fewer logs than its round's
  rules require is listed with that reason and never scored.

Plain functions over the loaded record dicts; `record_index.RecordIndex` keeps the labels as a
tracked map for the pages."""

from __future__ import annotations

from sitegen.content import round_rules as record_rules

MIN_TIMES = 2  # converged runs a result needs to be compared


def runs_key(record: dict) -> tuple | None:
    """The result's run times as a sorted tuple (failed runs last, as None), or None when
    there are fewer than MIN_TIMES converged runs to compare."""
    runs = record.get("runs") or []
    times = sorted(run for run in runs if run is not None)
    if len(times) < MIN_TIMES:
        return None
    return (*times, *([None] * (len(runs) - len(times))))


def _compare_key(record: dict):
    key = runs_key(record)
    if key is not None:
        return ("runs", key)
    return ("logs", record["logs_digest"]) if record.get("logs_digest") else None


def _original_order(record: dict) -> tuple:
    return len(record["path"].split("/")), record["id"]


def _groups(records) -> dict[tuple, list[dict]]:
    """(benchmark, compare key) -> its results, in round order, originals first."""
    groups: dict[tuple, list[dict]] = {}
    for record in records:
        key = _compare_key(record)
        if key is not None:
            groups.setdefault((record["benchmark"], key), []).append(record)
    for members in groups.values():
        members.sort(key=lambda r: (record_rules.round_key(r["round"]), _original_order(r)))
    return {k: v for k, v in groups.items() if len(v) > 1}


def labels(records) -> dict[str, dict]:
    """id -> {"carried_over_from": id or None, "copy_of": id or None}, for every result that
    is carried over or a copy (others are absent)."""
    found: dict[str, dict] = {}
    for members in _groups(list(records)).values():
        origin = members[0]
        first_of_round: dict[str, dict] = {}
        for record in members:
            original = first_of_round.setdefault(record["round"], record)
            entry = {
                "carried_over_from": origin["id"] if record["round"] != origin["round"] else None,
                "copy_of": original["id"] if original is not record else None,
            }
            if entry["carried_over_from"] or entry["copy_of"]:
                found[record["id"]] = entry
    return dict(sorted(found.items()))
