#!/usr/bin/env python3
"""How long importing the whole MLPerf Training record takes, and that re-importing unchanged
sources changes no byte. A benchmark, not a test: it needs the official repositories.

  python bench/import_record.py [--runs 3] [DIR ...]

DIRs: training_results_vX.Y clones or bare git directories (default: every round found under
/work/.mirror, as `python build.py import-record` uses). Each run imports every round into a
fresh folder under bench/work/import/; the first run's files are compared byte for byte with
every later run's and with content/data/record/. Prints the wall time of each run and the median;
the target is at most 60 s on a 2-core machine."""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitegen.importer.run import default_dirs, import_record  # noqa: E402

TARGET_SECONDS = 60.0


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def one_run(dirs: list[Path], out: Path) -> tuple[float, dict]:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    started = time.perf_counter()
    counts = import_record(dirs, out)
    return time.perf_counter() - started, counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("dirs", type=Path, nargs="*")
    args = parser.parse_args(argv)
    dirs = args.dirs or default_dirs()
    if not dirs:
        print("no repositories found: pass training_results_vX.Y folders", file=sys.stderr)
        return 1
    work = ROOT / "bench" / "work" / "import"
    print(
        f"{time.strftime('%Y-%m-%d %H:%M:%S')} · {platform.platform()} · "
        f"{os.cpu_count()} CPUs · {len(dirs)} round(s)"
    )
    seconds, first = [], None
    for run in range(args.runs):
        wall, counts = one_run(dirs, work / f"run-{run}")
        seconds.append(wall)
        files = files_of(work / f"run-{run}")
        same = first is None or files == first
        first = first or files
        print(
            f"run {run + 1}: {wall:.1f} s, {counts['results']} results, "
            f"{counts['skipped']} skipped, identical to run 1: {same}"
        )
    shipped = files_of(ROOT / "content" / "data" / "record")
    median = statistics.median(seconds)
    print(
        f"median {median:.1f} s (target <= {TARGET_SECONDS:.0f} s: "
        f"{'met' if median <= TARGET_SECONDS else 'missed'}); "
        f"identical to content/data/record/: {first == shipped}"
    )
    return 0 if first == shipped else 1


if __name__ == "__main__":
    sys.exit(main())
