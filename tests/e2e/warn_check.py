#!/usr/bin/env python3
# Helper of tests/e2e/test_warnings.sh (one Python start per case: starting
# Python is slow on a busy machine).
#   warn_check.py sample SECS IV OUT
#       sample /proc/stat and /proc/vmstat every IV seconds for SECS and keep
#       the maxima in OUT (JSON, rewritten after every sample): tasks running
#       or blocked, blocked, nr_dirty and nr_dirty + nr_writeback as fractions
#       of nr_dirty_threshold, how many samples reached 0.9 of it, and how
#       many were above the kernel's free-run ceiling, (threshold +
#       background threshold) / 2, where writers start to be throttled.
#   warn_check.py threads PID IV OUT
#       until process PID ends, read every IV seconds each of its threads'
#       /proc/PID/task/TID/schedstat (ns on the CPU, ns waiting on a run
#       queue) and voluntary context switches; keep the thread that ran
#       longest in OUT: run_ns, wait_ns, voluntary.
#   warn_check.py verdict CASE DIR
#       judge case CASE from DIR/CASE.json (the iobench report), DIR/CASE.a
#       and DIR/CASE.b (raw snapshots the script took around the run: "t
#       UPTIME", "disk <diskstats line>", "slab <slabinfo line>", then
#       /proc/vmstat) and DIR/CASE.sample when there is one. Statements come
#       on stdin, one a line:
#         raw DESCRIPTION :: EXPR   the provocation happened: EXPR holds for
#                                   r (counters that moved, b - a), j (the
#                                   report), s (the sampler's maxima)
#         has ID :: REGEX           warning ID is there once, with a message,
#                                   advice and evidence matching REGEX (and
#                                   perhaps the scope, groups and jobs it is
#                                   about)
#         absent ID...              none of these warnings is there
#         only ID...                no warning but these is there
#         note LABEL :: EXPR        print "# CASE: LABEL VALUE"
#       It prints one "ok - ..." or "not ok - ..." line per statement and
#       each warning as a "# id: evidence" line; exit 1 if any check failed.
import json
import os
import re
import sys
import time


def sample(secs, iv, out):
    end = time.monotonic() + secs
    m = dict(tasks=0, blocked=0, dirty_frac=0.0, dirty_wb_frac=0.0, n=0, dirty_ge90=0, dirty_wb_ge90=0,
             above_freerun=0)
    while time.monotonic() < end:
        st = dict(l.split()[:2] for l in open("/proc/stat") if l.startswith("procs_"))
        r, b = int(st["procs_running"]), int(st["procs_blocked"])
        m["tasks"] = max(m["tasks"], r + b)
        m["blocked"] = max(m["blocked"], b)
        v = {k: int(x) for k, x in (l.split() for l in open("/proc/vmstat"))}
        thr = max(1, v["nr_dirty_threshold"])
        f, fw = v["nr_dirty"] / thr, (v["nr_dirty"] + v["nr_writeback"]) / thr
        m["dirty_frac"] = round(max(m["dirty_frac"], f), 3)
        m["dirty_wb_frac"] = round(max(m["dirty_wb_frac"], fw), 3)
        m["dirty_ge90"] += f >= 0.9
        m["dirty_wb_ge90"] += fw >= 0.9
        m["above_freerun"] += 2 * (v["nr_dirty"] + v["nr_writeback"]) > thr + v["nr_dirty_background_threshold"]
        m["n"] += 1
        with open(out + ".tmp", "w") as o:
            json.dump(m, o)
        os.replace(out + ".tmp", out)  # whole after every sample: the caller may stop us
        time.sleep(iv)


def threads(pid, iv, out):
    last = {}
    while os.path.exists("/proc/%d/task" % pid):
        try:
            tids = os.listdir("/proc/%d/task" % pid)
        except OSError:
            break
        for t in tids:
            try:
                run, wait = map(int, open("/proc/%d/task/%s/schedstat" % (pid, t)).read().split()[:2])
                vol = next(int(l.split()[1]) for l in open("/proc/%d/task/%s/status" % (pid, t))
                           if l.startswith("voluntary_ctxt_switches"))
            except (OSError, ValueError, StopIteration):
                continue
            last[t] = dict(run_ns=run, wait_ns=wait, voluntary=vol)
        if last:
            with open(out + ".tmp", "w") as o:
                json.dump(max(last.values(), key=lambda x: x["run_ns"]), o)
            os.replace(out + ".tmp", out)
        time.sleep(iv)


def read_snap(path):
    o = {"vm": {}}
    for l in open(path):
        f = l.split()
        if not f:
            continue
        if f[0] == "t":
            o["t"] = float(f[1])
        elif f[0] == "disk":
            # reads, read sectors, writes, write sectors, io_ticks ms, weighted ms
            o["disk"] = dict(rios=int(f[4]), rsect=int(f[6]), wios=int(f[8]), wsect=int(f[10]),
                             io_ms=int(f[13]), weighted_ms=int(f[14]))
        elif f[0] == "slab":
            o["slab_bh"] = int(f[3]) * int(f[4])  # num_objs * objsize, as iobench counts it
        elif len(f) == 2:
            o["vm"][f[0]] = int(f[1])
    return o


def delta(a, b):
    r = {"secs": round(b["t"] - a["t"], 2), "slab_bh": b.get("slab_bh", 0) - a.get("slab_bh", 0)}
    for k in b.get("disk", {}):
        r["disk." + k] = b["disk"][k] - a["disk"][k]
    for k, v in b["vm"].items():
        if k in a["vm"] and v != a["vm"][k] and not k.startswith("nr_"):
            r["vm." + k] = v - a["vm"][k]
    return r


def verdict(case, d):
    try:
        j = json.load(open("%s/%s.json" % (d, case)))
        w = j["iobench"]["warnings"]
    except (OSError, ValueError, KeyError) as e:
        print("not ok - %s: the report is JSON with iobench.warnings (%s)" % (case, e))
        return 1
    try:
        r = delta(read_snap("%s/%s.a" % (d, case)), read_snap("%s/%s.b" % (d, case)))
    except OSError:
        r = {}
    try:
        s = json.load(open("%s/%s.sample" % (d, case)))
    except OSError:
        s = {}
    ids = [x.get("id") for x in w]
    for x in w:
        print("# %s: %s" % (x.get("id"), x.get("evidence")))
    env = {"r": r, "j": j, "s": s}
    failed = 0

    def result(good, what, why=""):
        nonlocal failed
        failed += not good
        print("%s - %s: %s" % ("ok" if good else "not ok", case, what))
        if not good and why:
            print("#   %s" % why)

    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        verb, _, rest = line.partition(" ")
        if verb in ("raw", "has", "note"):
            what, _, expr = rest.partition(" :: ")
        if verb == "raw":
            try:
                good = bool(eval(expr, env))
            except Exception as e:
                good = False
                expr += " (%r)" % e
            result(good, what, "false: %s with r=%s s=%s" % (expr, json.dumps(r, sort_keys=True), s))
        elif verb == "note":
            print("# %s: %s %s" % (case, what, eval(expr, env)))
        elif verb == "has":
            got = [x for x in w if x.get("id") == what]
            good = (len(got) == 1 and {"id", "message", "evidence", "advice"} <= set(got[0]) and
                    set(got[0]) <= {"id", "message", "evidence", "advice", "scope", "groups", "jobs"} and
                    got[0]["message"] and got[0]["advice"] and re.search(expr, got[0]["evidence"]))
            result(good, "warning %s with evidence matching '%s'" % (what, expr),
                   "warnings: %s" % ids)
        elif verb in ("absent", "only"):
            named = rest.split()
            bad = [i for i in ids if (i in named) == (verb == "absent")]
            result(not bad, ("no warning among: %s" if verb == "absent" else
                             "no warning but: %s") % (" ".join(named) or "(none)"),
                   "unexpected: %s" % bad)
        else:
            raise SystemExit("warn_check.py: bad statement %r" % line)
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "sample":
        sample(float(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
    elif len(sys.argv) == 5 and sys.argv[1] == "threads":
        threads(int(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "verdict":
        sys.exit(verdict(sys.argv[2], sys.argv[3]))
    else:
        raise SystemExit("usage: warn_check.py sample SECS IV OUT | threads PID IV OUT | verdict CASE DIR < statements")
