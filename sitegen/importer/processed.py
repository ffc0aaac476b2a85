"""What each run of a large-language-model result processed to reach its target, read from the
run's own log (docs/record-format.md: `run_samples`, `run_tokens`).

The count is the one MLCommons' rules name for convergence: "the last eval_accuracy line"
before run_stop (training_rules.adoc, "Epoch reporting"), read as mlperf_logging's RCP checker
reads it: `samples_count` in its metadata for the Llama benchmarks (training samples), and
`epoch_num` for GPT-3 ("Training token starting from 0"). Tokens are samples × the sequence
length where the rules fix it (training_rules.adoc's hyperparameter table: GPT-3 2,048,
Llama 3.1 8,192) and the log's `max_sequence_length` agrees. Llama 2 70B LoRA gets samples
only: its logs state no sequence length and the rules' table (8,196) differs from the
reference's 8,192.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from sitegen.importer.logs import TOKEN, line_around, mllog_event


class Count(NamedTuple):
    key: str  # the eval_accuracy metadata key holding the count
    unit: str  # what it counts: "samples" or "tokens"
    sequence: int | None  # the sequence length the rules fix, or None


COUNTS = {
    "gpt3": Count("epoch_num", "tokens", 2048),
    "llama31_8b": Count("samples_count", "samples", 8192),
    "llama31_405b": Count("samples_count", "samples", 8192),
    "llama2_70b_lora": Count("samples_count", "samples", None),
}
KEYS_RE = re.compile(rb'"key":\s*"(eval_accuracy|run_stop|max_sequence_length)"')


class Processed(NamedTuple):
    samples: int | None
    tokens: int | None
    reason: str  # why a count is missing ('' when none is)


def log_count(data: bytes, key: str) -> tuple[int | None, int | None]:
    """(the count of the last eval_accuracy before the first run_stop, max_sequence_length)."""
    count = sequence = None
    if TOKEN not in data:
        return None, None
    for match in KEYS_RE.finditer(data):
        event = mllog_event(line_around(data, match.start(), match.end()))
        name = match.group(1).decode()
        if event is None or event.get("key") != name:
            continue
        if name == "run_stop":
            break
        if name == "max_sequence_length":
            sequence = whole(event.get("value"))
        elif isinstance(event.get("metadata"), dict):
            count = whole(event["metadata"].get(key))
    return count, sequence


def whole(value) -> int | None:
    """A logged count as an integer (a float with no fraction too), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        return None
    return int(value) if value >= 0 else None


def processed(data: bytes, benchmark: str, converged: bool) -> Processed:
    """One run's samples and tokens (None each where not known, with the reason)."""
    rule = COUNTS[benchmark]
    if not converged:
        return Processed(None, None, "")
    count, sequence = log_count(data, rule.key)
    if count is None:
        return Processed(None, None, f"no {rule.key} on an eval_accuracy line before run_stop")
    samples: int | None
    tokens: int | None
    if rule.unit == "samples":  # the log counts samples; tokens follow from the sequence
        samples, tokens = count, count * rule.sequence if rule.sequence else None
    else:  # the log counts tokens; samples follow from the sequence
        tokens = count
        samples = count // rule.sequence if rule.sequence and count % rule.sequence == 0 else None
    if rule.sequence and sequence != rule.sequence:  # keep only what the log itself counted
        said = f"max_sequence_length {sequence} is not the rules' {rule.sequence}"
        return Processed(count, None, said) if rule.unit == "samples" else Processed(None, count, said)
    if samples is None:
        return Processed(None, tokens, f"{count} tokens are not whole sequences of {rule.sequence}")
    return Processed(samples, tokens, "")


def add_counts(record: dict, datas: list[bytes], logs: list[str]) -> list[str]:
    """Set `run_samples` (and `run_tokens` where the rules fix the sequence length) of a
    scored large-language-model result, one entry per run in `runs` order; notes."""
    if record["benchmark"] not in COUNTS:
        return []
    found = [processed(d, record["benchmark"], m is not None) for d, m in zip(datas, record["runs"])]
    record["run_samples"] = [p.samples for p in found]
    if COUNTS[record["benchmark"]].sequence:
        record["run_tokens"] = [p.tokens for p in found]
    return [
        f"{record['path']}/{path.rpartition('/')[2]}: processed count not recorded: {p.reason}"
        for path, p in zip(logs, found)
        if p.reason
    ]
