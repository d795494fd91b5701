"""The last interval of fio's averaged logs, fio 3.33 against iobench
(test_fio_lastlog.sh): lastlog_check.py DIR CASE:MSEC...; each case's logs
are in DIR/CASE/{fio,iob}, with the JSON in out.json, MSEC its
log_avg_msec (0: per-I/O). Prints one "ok - " / "not ok - " line per check;
the tolerances are explained in test_fio_lastlog.sh."""
import glob
import json
import os
import sys


def ok(cond, what):
    print(("ok - " if cond else "not ok - ") + what)


def rows(path):
    return [[int(x) for x in l.split(",")] for l in open(path) if l.strip()]


def jobs(tool_dir):
    return json.load(open(tool_dir + "/out.json"))["jobs"]


def per_dir(rs):
    out = {}
    for r in rs:
        out.setdefault(r[2], []).append(r[0])
    return out


def near(t, msec):
    """the multiple of msec nearest to t"""
    return (t + msec // 2) // msec * msec


def rate_log(case, n, msec, runtime, rf, ri, shared):
    """bw/iops: iobench's stamps are k*msec up to the runtime, fio's the
    same to the nearest multiple but maybe without the last"""
    want = [k * msec for k in range(1, (runtime + 1) // msec + 1)]
    for d in sorted(set(per_dir(rf)) | set(per_dir(ri))):
        tf = sorted(per_dir(rf).get(d, []))
        ti = sorted(per_dir(ri).get(d, []))
        w = sorted(want * shared)
        ok(ti == w, "%s %s dir %d: iobench stamps %s, want %s" % (case, n, d, ti, w))
        nf = sorted(near(t, msec) for t in tf)
        last = want[-1] if want else None
        good = any(nf == sorted([x for x in w if x != last] + [last] * m) for m in range(shared + 1)) \
            if want else not nf
        ok(good, "%s %s dir %d: fio stamps %s (nearest multiples %s): iobench's, the last maybe not"
           % (case, n, d, tf, nf))
        ok(len(tf) <= len(ti) <= len(tf) + shared,
           "%s %s dir %d: lines fio %d, iobench %d (fio's last line is a race with its job's end)"
           % (case, n, d, len(tf), len(ti)))


def lat_log(case, n, msec, ends, rf, ri, shared):
    """lat: windows at the multiples, the last partial one at the job's end"""
    for d in sorted(set(per_dir(rf)) | set(per_dir(ri))):
        tf = per_dir(rf).get(d, [])
        ti = per_dir(ri).get(d, [])
        ok(abs(len(tf) - len(ti)) <= shared,
           "%s %s dir %d: lines fio %d, iobench %d (within %d)" % (case, n, d, len(tf), len(ti), shared))
        # a log the jobs share (per_job_logs=0) ends with the job that ends
        # last, which a loaded machine may start tens of ms after the first
        # (whose runtime is the end compared): a quarter interval for those
        tol = 10 if shared == 1 else max(10, msec // 4)
        for tool, ts, end in (("fio", tf, ends[0]), ("iobench", ti, ends[1])):
            if not ts:
                ok(False, "%s %s dir %d: %s has no line" % (case, n, d, tool))
                continue
            ok(abs(max(ts) - end) <= tol,
               "%s %s dir %d: %s's last line at %d ms, the job's end %d ms (the last interval, "
               "within %d ms)" % (case, n, d, tool, max(ts), end, tol))
        mf = sorted({near(t, msec) for t in tf if t < ends[0] - msec // 2})
        mi = sorted({near(t, msec) for t in ti if t < ends[1] - msec // 2})
        ok(mf == mi, "%s %s dir %d: window stamps to the nearest %d ms, fio %s, iobench %s"
           % (case, n, d, msec, mf, mi))


def main():
    top = sys.argv[1]
    for arg in sys.argv[2:]:
        case, msec = arg.split(":")
        msec = int(msec)
        dfio, diob = top + "/" + case + "/fio", top + "/" + case + "/iob"
        names = sorted(os.path.basename(p) for p in glob.glob(dfio + "/*.log"))
        ok(names == sorted(os.path.basename(p) for p in glob.glob(diob + "/*.log")),
           "%s: the same log files %s" % (case, names))
        jf, ji = jobs(dfio), jobs(diob)
        for n in names:
            rf, ri = rows(dfio + "/" + n), rows(diob + "/" + n)
            if not rf and not ri:  # slat of a synchronous engine
                ok(True, "%s %s: empty in both" % (case, n))
                continue
            parts = n.split(".")
            shared = len(jf) if len(parts) == 2 else 1  # per_job_logs=0
            k = int(parts[1]) - 1 if shared == 1 else 0
            ends = (jf[k]["job_runtime"], ji[k]["job_runtime"])
            if msec == 0:
                for tool, r, j in (("fio", rf, jf[k]), ("iobench", ri, ji[k])):
                    ios = j["read"]["total_ios"] + j["write"]["total_ios"]
                    ok(len(r) == ios and max(x[0] for x in r) >= j["job_runtime"] - 100,
                       "%s %s: %s one line per I/O (%d, JSON %d), the last at %d ms of %d"
                       % (case, n, tool, len(r), ios, max(x[0] for x in r), j["job_runtime"]))
            elif "_bw." in n or "_iops." in n:
                # the runtime's multiples that the job reached (a size-limited
                # job: those before it ended)
                rate_log(case, n, msec, min(ends), rf, ri, shared)
            else:
                lat_log(case, n, msec, ends, rf, ri, shared)


main()
