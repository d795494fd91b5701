"""Compare iobench's time-series logs with fio's (test_fio_logs.sh).

usage: fio_logs_check.py MODE DIR_FIO DIR_IOB [ARGS]
  same    the same log files exist in both directories, and every file
          matches fio's in format: field count, integers, direction codes,
          bs/offset/prio columns (0 on averaged lines), times rising per
          direction, and in lines per direction within `slack` (ARGS[0]) of
          fio's or, ARGS[1] being log_avg_msec, of the windows fio writes
          when its job does not stall
  perio   per-I/O logs: every line has the I/O's bs and the line count per
          direction equals total_ios of that tool's JSON (DIR/out.json)
  hist    DIR_IOB's clat_hist log has fio's shape (3 + 1856>>C integer
          fields, C = ARGS[0]), and its counts add up to the JSON's clat N
          less the last partial window (fio writes none for it)
Prints one "ok -"/"not ok -" line per check; exits 1 on any failure.
"""
import glob
import json
import os
import sys

failed = False


def report(ok, what):
    global failed
    print(("ok - " if ok else "not ok - ") + what)
    failed |= not ok


def read_log(path):
    rows = []
    with open(path) as f:
        for line in f:
            assert line.endswith("\n"), "line without newline in " + path
            rows.append(line[:-1].split(", "))
    return rows


def shape(rows, name, shared=False):
    """(fields per line, per-direction counts, problems)."""
    counts = {}
    problems = []
    nf = {len(r) for r in rows}
    last = {}
    for r in rows:
        try:
            t, v, d = int(r[0]), int(r[1]), int(r[2])
        except ValueError:
            problems.append("not integers: %s" % r)
            continue
        if d not in (0, 1, 2):
            problems.append("direction %d" % d)
        if t < last.get(d, 0) and not shared:
            problems.append("time goes back: %d after %d" % (t, last[d]))
        last[d] = t
        counts[d] = counts.get(d, 0) + 1
        if r[-1].startswith("0x"):
            int(r[-1], 16)
        elif r[-1] not in ("0", "1"):
            problems.append("prio column %r" % r[-1])
    return nf, counts, problems


def mode_same(dfio, diob, slack, window):
    names_f = sorted(os.path.basename(p) for p in glob.glob(dfio + "/*.log*"))
    names_i = sorted(os.path.basename(p) for p in glob.glob(diob + "/*.log*"))
    report(names_f == names_i, "same log files: fio %s, iobench %s" % (names_f, names_i))
    for n in names_f:
        if n not in names_i:
            continue
        rf, ri = read_log(dfio + "/" + n), read_log(diob + "/" + n)
        # jobs sharing a file (per_job_logs=0): each job's times rise
        shared = not any(c.isdigit() for c in n.split(".")[1:2])
        nff, cf, pf = shape(rf, n, shared)
        nfi, ci, pi = shape(ri, n, shared)
        report(not pi, "%s: iobench lines well formed %s" % (n, pi[:3]))
        report(nff == nfi or not rf, "%s: fields per line fio %s, iobench %s" % (n, nff, nfi))
        avg_f = rf and all(r[3] == "0" for r in rf)
        avg_i = ri and all(r[3] == "0" and all(x == "0" for x in r[4:]) for r in ri)
        report(bool(avg_f) == bool(avg_i) or not rf,
               "%s: averaged lines (bs, offset, prio 0) in fio %s, iobench %s" % (n, bool(avg_f), bool(avg_i)))
        dirs = sorted(set(cf) | set(ci))
        # fio writes no line for a window without a completion, so on a
        # loaded machine (its job stalled) it has fewer: then iobench's
        # count is held to what fio writes unstalled, one line per window
        # of the job's runtime (lat: the last one partial; bw/iops: the
        # last one due at the runtime's end, which fio's timer writes only
        # when it runs before the job has stopped)
        ideal = None
        if window:
            jobs = json.load(open(dfio + "/out.json"))["jobs"]
            per = sum(j["job_runtime"] for j in jobs) // window if ".1." not in n else \
                jobs[0]["job_runtime"] // window
            ideal = per
        good = all(abs(cf.get(d, 0) - ci.get(d, 0)) <= slack or
                   (ideal is not None and abs(ci.get(d, 0) - ideal) <= slack) for d in dirs)
        stalls = ""
        if not good and ideal is not None:
            # iobench's own job stalled too (no completion in some windows,
            # so no line for them): then each of its lines is in a window
            # of its own, and with the windows without one they make up
            # the runtime's windows
            cover = windows(ri, window)
            good = all(d in cover and abs(sum(cover[d]) - ideal) <= slack for d in dirs)
            stalls = "; iobench's (lines, windows without one) per direction %s" % cover
        report(good, "%s: lines per direction fio %s, iobench %s (within %d; unstalled fio: %s%s)"
               % (n, cf, ci, slack, ideal, stalls))


def windows(rows, window):
    """{direction: (lines, windows without a line)}: the k-th line of a job
    stands for window k unless its time is past that window (the job had
    no completion in between: those windows have no line). A job's lines
    are those up to where the time goes back (per_job_logs=0)."""
    out, at, last = {}, {}, {}
    for r in rows:
        t, d = int(r[0]), int(r[2])
        lines, gaps = out.get(d, (0, 0))
        k = at.get(d, 0) + 1
        if t < last.get(d, 0):  # the next job's lines
            k = 1
        w = t // window
        if w > k:
            gaps += w - k
            k = w
        out[d] = (lines + 1, gaps)
        at[d], last[d] = k, t
    return out


def mode_perio(dfio, diob):
    for tool, d in (("fio", dfio), ("iobench", diob)):
        js = json.load(open(d + "/out.json"))["jobs"][0]
        for path in sorted(glob.glob(d + "/*.log")):
            n = os.path.basename(path)
            rows = read_log(path)
            if "slat" in n and not rows:
                continue
            _, counts, problems = shape(rows, n)
            want = {i: js[k]["total_ios"] for i, k in enumerate(("read", "write")) if js[k]["total_ios"]}
            report(counts == want and not problems,
                   "%s %s: one line per I/O %s, JSON total_ios %s" % (tool, n, counts, want))
            report(all(r[3] == "4096" for r in rows), "%s %s: each line has the I/O's bs" % (tool, n))
            if "clat" in n and tool == "iobench":
                # the I/O's offset, in the file and block aligned
                report(all(int(r[4]) % 4096 == 0 and int(r[4]) < 64 << 20 for r in rows),
                       "%s %s: log_offset column holds block offsets" % (tool, n))


def mode_hist(diob, coarse):
    paths = glob.glob(diob + "/*_clat_hist.*.log")
    report(len(paths) == 1, "one histogram log: %s" % paths)
    rows = read_log(paths[0])
    want = 3 + (1856 >> coarse)
    report(rows and all(len(r) == want for r in rows), "%d fields on every line" % want)
    report(all(x.isdigit() for r in rows for x in r), "integers only")
    total = sum(int(x) for r in rows for x in r[3:])
    n = json.load(open(diob + "/out.json"))["jobs"][0]["read"]["clat_ns"]["N"]
    # as fio: no line for the last partial window, so the lines hold the
    # JSON's I/Os but those of the last (up to one log_hist_msec) window
    report(0 < total <= n and n - total < n // 4,
           "bin counts add up to the JSON's clat N but the last partial window: %d vs %d"
           % (total, n))


mode = sys.argv[1]
if mode == "same":
    mode_same(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]) if len(sys.argv) > 5 else 0)
elif mode == "perio":
    mode_perio(sys.argv[2], sys.argv[3])
elif mode == "hist":
    mode_hist(sys.argv[3], int(sys.argv[4]))
sys.exit(1 if failed else 0)
