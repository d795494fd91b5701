"""What the programs that drive fio read from it, for test_fio_clients.sh.

Each subcommand reads one tool's output the way one client does and
prints what it got (one JSON line), or the reasons it would fail (one
"problem: ..." line each, exit 1). The facts come from the clients'
sources (named in test_fio_clients.sh); nothing here is their code:
- kdm: KDiskMark's helper runs fio with --output-format=json and parses
  all of stdout as one JSON document; it wants jobs[0] with error == 0
  (toInt), read/write "bw" as a whole number (Qt's toInt gives 0 for
  anything else), "iops" and "clat_ns"."mean" as numbers (toDouble).
- ezver: ezfio takes the first line of `fio --version`, splits it on '-'
  and needs int(part1.split('.')[0]) >= 2 and float(part1) (>= 2.99 picks
  the nanosecond latency bins).
- ezjson: ezfio drops stdout up to its first '{', json.loads the rest, and
  reads jobs[0] sys_cpu, usr_cpu, read/write iops and lat_ns.mean (floats);
  for json+ each direction's total_ios, clat_ns.N and clat_ns.bins (string
  keys of integer nanoseconds, integer counts adding up to at most
  total_ios).
- logs: the log files of a folder as fio-plot and ezfio read them:
  every line "time, value, direction, ..." with integer fields (fio-plot's
  int(), ezfio's int()), per file the line count and last time per
  direction.
- pts: the Phoronix Test Suite's result parser run over pts/fio's four
  ResultsParser entries (bandwidth after "bw" with KiB/s then MiB/s
  stripped, IOPS after "IOPS" with "," then "k," stripped); given the
  block size, the two results must be one rate (IOPS x bs).
- logcmp A B RUNTIME AVG: two tools' log summaries alike as those clients
  use them (file names, lines); lastint A RUNTIME AVG: every bw/iops log
  holds the last interval, a line in the runtime's last tenth of a window.
- same A B: two JSON summaries are equal.
"""
import glob
import json
import os
import re
import sys


def problems_out(found, problems):
    for p in problems:
        print("problem: " + p)
    if problems:
        return 1
    print(json.dumps(found, sort_keys=True))
    return 0


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def kdm(path, rw, bs_kib):
    """KDiskMark's parseResult over one run's stdout."""
    probs = []
    text = open(path, encoding="utf-8", errors="replace").read()
    try:
        doc = json.loads(text)  # QJsonDocument::fromJson takes it all or nothing
    except ValueError as e:
        return problems_out({}, ["stdout is not one JSON document: %s" % e])
    jobs = doc.get("jobs") if isinstance(doc, dict) else None
    if not isinstance(jobs, list) or not jobs:
        return problems_out({}, ["no jobs array (KDiskMark says 'Bad FIO output.')"])
    job = jobs[0]
    if not (is_num(job.get("error")) and job["error"] == 0):
        probs.append("jobs[0].error is %r, not the number 0" % job.get("error"))
    got = {}
    for d in ("read", "write"):
        dj = job.get(d)
        if not isinstance(dj, dict):
            probs.append("jobs[0].%s is not an object" % d)
            continue
        bw, iops = dj.get("bw"), dj.get("iops")
        mean = (dj.get("clat_ns") or {}).get("mean")
        if not (is_num(bw) and float(bw).is_integer() and abs(bw) < 2**31):
            probs.append("%s.bw %r is not a whole number Qt's toInt() reads" % (d, bw))
        if not is_num(iops):
            probs.append("%s.iops %r is not a number" % (d, iops))
        if not is_num(mean):
            probs.append("%s.clat_ns.mean %r is not a number" % (d, mean))
        got[d] = {"bw": bw, "iops": iops, "clat_mean": mean}
    if probs:
        return problems_out(got, probs)
    wants = [d for d in ("read", "write")
             if (d == "read" and "read" in rw) or (d == "write" and "write" in rw)
             or rw in ("rw", "randrw")]
    for d in ("read", "write"):
        g = got[d]
        if d in wants:
            if not (g["bw"] > 0 and g["iops"] > 0 and g["clat_mean"] > 0):
                probs.append("%s of rw=%s has bw %r iops %r clat mean %r, not all > 0"
                             % (d, rw, g["bw"], g["iops"], g["clat_mean"]))
            elif abs(g["iops"] * bs_kib - g["bw"]) > 0.1 * g["bw"] + bs_kib:
                probs.append("%s: iops %.1f x %d KiB is not bw %d KiB/s"
                             % (d, g["iops"], bs_kib, g["bw"]))
        elif g["bw"] != 0 or g["iops"] != 0:
            probs.append("%s of rw=%s has bw %r iops %r, not 0" % (d, rw, g["bw"], g["iops"]))
    shape = {d: {k: type(v).__name__ for k, v in got[d].items()} for d in got}
    return problems_out({"types": shape, "dirs": wants}, probs)


def ezver(path):
    line = open(path).read().split("\n")[0].rstrip()
    try:
        part = line.split("-")[1]
        major = int(part.split(".")[0])
        ver = float(part)
    except (IndexError, ValueError) as e:
        return problems_out({}, ["first line %r: ezfio's parse fails (%s)" % (line, e)])
    probs = [] if major >= 2 else ["major version %d < 2" % major]
    return problems_out({"version": ver, "ns_bins": ver >= 2.99}, probs)


def ezjson(path, fmt):
    out = open(path, encoding="utf-8", errors="replace").read()
    i = out.find("{")
    if i < 0:
        return problems_out({}, ["no '{' in stdout"])
    try:
        j = json.loads(out[i:])
    except ValueError as e:
        return problems_out({}, ["stdout from the first '{' is not JSON: %s" % e])
    probs = []
    try:
        c = j["jobs"][0]
        vals = {"sys_cpu": float(c["sys_cpu"]), "usr_cpu": float(c["usr_cpu"])}
        for d in ("read", "write"):
            vals[d + "_iops"] = float(c[d]["iops"])
            vals[d + "_lat_us"] = float(c[d]["lat_ns"]["mean"]) / 1000
    except (KeyError, IndexError, TypeError, ValueError) as e:
        return problems_out({}, ["ezfio's reads of jobs[0] fail: %r" % e])
    for d in ("read", "write"):
        if not vals[d + "_iops"] > 0:
            probs.append("%s iops %r of a randrw job is not > 0" % (d, vals[d + "_iops"]))
    if fmt == "json+":
        for d in ("read", "write"):
            try:
                ios = c[d]["total_ios"]
                n = c[d]["clat_ns"]["N"]
                bins = c[d]["clat_ns"]["bins"] if n > 0 else {}
                tot = sum(int(bins[k]) for k in sorted(bins, key=int))
            except (KeyError, TypeError, ValueError) as e:
                probs.append("%s: json+ latency bins unreadable: %r" % (d, e))
                continue
            if not (ios > 0 and 0 < tot <= ios):
                probs.append("%s: bins count %d of total_ios %r" % (d, tot, ios))
    return problems_out({k: type(v).__name__ for k, v in vals.items()}, probs)


def logs(folder):
    """Per log file: lines, and per direction the line count and last time."""
    found, probs = {}, []
    for f in sorted(glob.glob(os.path.join(folder, "*.log"))):
        name = os.path.basename(f)
        rows = [ln for ln in open(f).read().split("\n") if ln.strip()]
        per = {}
        for ln in rows:
            parts = ln.split(",")
            try:
                t, v, d = int(parts[0]), int(parts[1]), int(parts[2])
            except (IndexError, ValueError):
                probs.append("%s: line %r has no integer time, value, direction" % (name, ln))
                break
            if d not in (0, 1, 2) or v < 0:
                probs.append("%s: line %r: direction %d value %d" % (name, ln, d, v))
            p = per.setdefault(str(d), [0, 0])
            p[0] += 1
            p[1] = t
        found[name] = {"lines": len(rows), "dirs": per}
    if not found:
        probs.append("no .log files in %s" % folder)
    return problems_out(found, probs)


# pts/fio-2.1.0's results-definition.xml: (ResultAfterString,
# StripFromResult, LineHint, divide, multiply, what)
PTS_PARSERS = [
    ("bw", "KiB/s", ": bw=", 1000, None, "bw_MBps"),
    ("bw", "MiB/s", ": bw=", None, None, "bw_MBps"),
    ("IOPS", ",", "IOPS=", None, None, "iops"),
    ("IOPS", "k,", "IOPS=", None, 1000, "iops"),
]


def pts_number(tok, strip):
    tok = tok.replace(strip, "")
    if not re.fullmatch(r"[0-9.]+", tok) and re.fullmatch(r"[0-9.]+.", tok):
        scale = {"k": 1000, "m": 1000000}.get(tok[-1].lower())
        if scale:
            tok = str(float(tok[:-1]) * scale)
    try:
        return float(tok)
    except ValueError:
        return None


def pts(path, bs_kib=0):
    """The PTS result parser's way with the ResultAfterString entries."""
    out = open(path, encoding="utf-8", errors="replace").read()
    lines = out.split("\n")
    results, seen = {}, []
    for after, strip, hint, div, mul, what in PTS_PARSERS:
        value = None
        # lines holding the hint, the last one first (strrpos), the
        # earlier ones as backups while nothing is found
        for line in reversed([ln for ln in lines if hint.strip() in ln]):
            r = line.replace("=", " = ").translate(str.maketrans("()\t", "   ")).split()
            if after not in r:
                continue
            for tok in r[r.index(after) + 1:]:
                if tok in (":", ",", "-", "="):
                    continue
                value = pts_number(tok, strip)
                break
            if value is not None:
                break
        if value is None:
            continue
        if div:
            value /= div
        if mul:
            value *= mul
        if value in seen:
            continue  # PTS drops a duplicate result
        seen.append(value)
        if what not in results:
            results[what] = value
            if what == "bw_MBps":
                results["bw_unit"] = strip
    probs = ["no %s result" % w for w in ("bw_MBps", "iops") if w not in results]
    if not probs and bs_kib:
        # the two results describe one rate: IOPS x bs in the unit parsed
        per = 1000 if results["bw_unit"] == "KiB/s" else 1024
        want = results["iops"] * bs_kib / per
        if abs(results["bw_MBps"] - want) > 0.05 * want:
            probs.append("bandwidth %g is not IOPS %g x %d KiB (%g)"
                         % (results["bw_MBps"], results["iops"], bs_kib, want))
    return problems_out(results, probs)


def is_rate_log(name):
    return "_bw." in name or "_iops." in name


def logcmp(a, b, runtime, avg):
    """Two tools' log summaries (of `logs`) as fio-plot and ezfio use them:
    the same file names; the latency logs (fio writes their last, partial
    window at the job's end) the same lines per direction; the bw/iops logs
    floor(runtime/avg) lines, or one less where fio's timer lost the race
    with the job's end, the last at most 1.1 windows before the end."""
    x, y = json.loads(open(a).read()), json.loads(open(b).read())
    probs = []
    if sorted(x) != sorted(y):
        probs.append("log files: fio %s, iobench %s" % (sorted(x), sorted(y)))
    full = runtime // avg
    for tool, logs_ in (("fio", x), ("iobench", y)):
        for name, v in sorted(logs_.items()):
            if not v["dirs"]:
                probs.append("%s: %s is empty" % (tool, name))
            if not is_rate_log(name):
                continue
            for dd, (n, last) in sorted(v["dirs"].items()):
                if not (full - 1 <= n <= full and last >= runtime - 1.1 * avg):
                    probs.append("%s: %s direction %s: %d lines, the last at %d ms (want %d-%d, "
                                 "the last >= %d)" % (tool, name, dd, n, last, full - 1, full,
                                                      runtime - 1.1 * avg))
    for name in sorted(set(x) & set(y)):
        if is_rate_log(name):
            continue
        cx = {k: v[0] for k, v in x[name]["dirs"].items()}
        cy = {k: v[0] for k, v in y[name]["dirs"].items()}
        if cx != cy:
            probs.append("%s: lines per direction fio %s, iobench %s" % (name, cx, cy))
    return problems_out({"files": len(x)}, probs)


def lastint(a, runtime, avg):
    """Which bw/iops logs hold the last interval (a line >= runtime - avg/10)."""
    x = json.loads(open(a).read())
    rate = {k: v for k, v in x.items() if is_rate_log(k)}
    have = sorted(k for k, v in rate.items()
                  if all(last >= runtime - avg / 10 for _, last in v["dirs"].values()))
    print("%d of %d bw/iops logs have a line at >= %d ms" % (len(have), len(rate), runtime - avg / 10))
    return 0 if rate and len(have) == len(rate) else 1


def same(a, b):
    """The two summaries (lines of JSON) have the same keys and values."""
    try:
        x, y = json.loads(open(a).read()), json.loads(open(b).read())
    except ValueError:
        print("not both summaries: %r and %r" % (open(a).read(), open(b).read()))
        return 1
    if x == y:
        print("same")
        return 0
    print("fio:     " + json.dumps(x, sort_keys=True))
    print("iobench: " + json.dumps(y, sort_keys=True))
    return 1


def main(argv):
    cmd, args = argv[1], argv[2:]
    if cmd == "kdm":
        return kdm(args[0], args[1], int(args[2]))
    if cmd == "ezver":
        return ezver(args[0])
    if cmd == "ezjson":
        return ezjson(args[0], args[1])
    if cmd == "logs":
        return logs(args[0])
    if cmd == "pts":
        return pts(args[0], int(args[1]) if len(args) > 1 else 0)
    if cmd == "logcmp":
        return logcmp(args[0], args[1], int(args[2]), int(args[3]))
    if cmd == "lastint":
        return lastint(args[0], int(args[1]), int(args[2]))
    if cmd == "same":
        return same(args[0], args[1])
    print("problem: unknown subcommand %r" % cmd)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
