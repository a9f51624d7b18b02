#!/usr/bin/env python3
"""HTA's queue length, reproduced without pandas, to compare with tracetab gaps.

HolisticTraceAnalysis (hta/analyzers/trace_counters.py): runtime launch calls
(by name, HTA's list) with a correlated GPU event get +1 at their ts; their
GPU events (any event with a stream) -1 at theirs; both sorted by ts (stable
here), a running sum per stream. get_time_spent_blocked_on_full_queue sums,
per stream, the time to the next point where the length is >= max_queue_length.

usage: hta_queue_length.py [--graphs] TRACE.json[.gz] [MAX_QUEUE]
--graphs counts graph launches too (each of a graph's kernels +1 at the
cudaGraphLaunch), as tracetab does; HTA's list leaves them out.
prints per (pid, stream): points, max length, full time (ns, from decimal us).
"""
import gzip
import json
import sys
from decimal import Decimal

LAUNCH = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
          "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
          "hipMemsetAsync", "hipMemcpyAsync", "hipMemcpyWithStream"}


def ns(v):
    return int(Decimal(str(v)) * 1000)


def main():
    args = sys.argv[1:]
    if args and args[0] == "--graphs":
        LAUNCH.update({"cudaGraphLaunch", "hipGraphLaunch"})
        args = args[1:]
    path = args[0]
    limit = int(args[1]) if len(args) > 1 else 1024
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        doc = json.load(f, parse_float=Decimal)
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
    calls, gpu = {}, []
    for e in evs:
        if e.get("ph") != "X":
            continue
        a = e.get("args") or {}
        c = a.get("correlation")
        if e.get("name") in LAUNCH and c is not None and int(c) > 0:
            calls.setdefault(int(c), ns(e["ts"]))
            continue
        elif "stream" in a and c is not None:
            gpu.append((int(c), (e.get("pid"), a["stream"]), ns(e["ts"])))
    series = {}
    for c, key, ts in gpu:
        if c in calls:
            series.setdefault(key, []).extend([(calls[c], 1), (ts, -1)])
    for key in sorted(series, key=str):
        pts = sorted(series[key], key=lambda p: p[0])  # stable: launches first at a tie, as concat put them
        level, out = 0, []
        for ts, d in pts:
            level += d
            out.append((ts, level))
        full = sum(out[k + 1][0] - out[k][0] for k in range(len(out) - 1) if out[k][1] >= limit)
        print(f"pid {key[0]} stream {key[1]}: {len(out)} points, max {max(l for _, l in out)}, full_ns {full}")


if __name__ == "__main__":
    main()
