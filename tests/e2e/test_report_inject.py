#!/usr/bin/env python3
# iobench report hands text to gnuplot, whose command language substitutes
# backquotes (`cmd`), expands macros (@name) and reads a line end as the
# end of a command. This test puts every byte 0x01-0xFF and each of `, @,
# $(, system(, a line feed (with an EOD line after it, the end of a
# datablock), ; and HTML's < & " into every text the report plots: job
# names (--name), labels (--label, the selections' names), file names
# given to --from, the host name (set in a UTS namespace of its own), the
# job names of an imported fio JSON file and a sweep's factor levels. Each
# text carries canary commands (touch NAME) and iobench runs in an empty
# folder: no file may appear there. Each report must exit 0 with its plots
# drawn (inline SVG, no "gnuplot failed"), each text must have reached a
# plot (its marker inside an <svg>), and the page must stay valid: UTF-8,
# no control byte, none of the texts' < & " left raw.
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.environ.get("TOP", os.path.join(os.path.dirname(__file__), "..", ".."))
IOBENCH = os.environ.get("IOBENCH", os.path.join(TOP, "build", "iobench"))
passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok - " + name)
    else:
        failed += 1
        print("not ok - " + name + (": " + detail if detail else ""))


if os.geteuid() != 0:
    print("skip: needs root (a UTS namespace for the host name), as every e2e script")
    sys.exit(77)
if not shutil.which("gnuplot"):
    print("not ok - gnuplot is not installed (scripts/deps.sh installs gnuplot-nox)")
    sys.exit(1)

ALL = bytes(range(1, 256))


def canaries(tag, drop=b"", sp=b" "):
    """HTML's attacks and the marker first (a text may be shortened where
    it is shown), then the attacks on gnuplot's command language, each a
    touch of its own; a piece holding a byte in drop is left out (that
    byte is a syntax of iobench's own there), sp stands for the spaces."""
    c = [b"<i>IOBX" + tag + b"&zz", b"\" onx=\"", b"`touch bq_" + tag + b"`",
         b"$(touch dl_" + tag + b")", b"system(\"touch sy_" + tag + b"\")", b"@GPVAL_PWD",
         b"\nEOD\nsystem(\"touch eod_" + tag + b"\")\n", b";system('touch sc_" + tag + b"');"]
    c = [x.replace(b" ", sp) for x in c]
    return b"".join(x for x in c if not any(d in x for d in drop))


def evil(tag, drop=b"", sp=b" "):
    """The canaries, then every byte 0x01-0xFF but those in drop."""
    return canaries(tag, drop, sp) + bytes(b for b in ALL if b not in drop)


def marker(tag):
    return b"IOBX" + tag


tmp = tempfile.mkdtemp(prefix="iobench-inject-")
canary_dir = os.path.join(tmp, "c")
os.mkdir(canary_dir)
db = os.path.join(tmp, "results.db")
env = dict(os.environ, IOBENCH_DB=db)


def ib(args, host=None):
    argv = [os.fsencode(IOBENCH)] + [a if isinstance(a, bytes) else a.encode() for a in args]
    if host is not None:
        # the host name of a UTS namespace of its own, then iobench
        argv = [b"unshare", b"--uts", sys.executable.encode(), b"-c",
                b"import os, socket, sys; socket.sethostname(bytes.fromhex(sys.argv[1])); "
                b"os.execv(sys.argv[2], sys.argv[2:])", host.hex().encode()] + argv
    return subprocess.run(argv, cwd=canary_dir, env=env, capture_output=True, timeout=300)


def page_checks(what, path, r, tags, shown=()):
    """tags: the texts that must reach a plot; shown: that the page shows
    only (in tables)."""
    check(what + ": exit 0", r.returncode == 0, r.stderr.decode(errors="replace")[-400:])
    check(what + ": no gnuplot failure", b"gnuplot failed" not in r.stderr and
          b"could not draw" not in (open(path, "rb").read() if os.path.exists(path) else b""),
          r.stderr.decode(errors="replace")[-400:])
    left = os.listdir(canary_dir)
    check(what + ": no canary command ran", not left, repr(left))
    page = open(path, "rb").read() if os.path.exists(path) else b""
    svgs = re.findall(rb"<svg.*?</svg>", page, re.S)
    check(what + ": the plots are drawn (inline SVG)", len(svgs) >= 1, "%d svg" % len(svgs))
    for t in tags:
        check(what + ": the text " + t.decode() + " reached a plot",
              any(marker(t) in s for s in svgs))
    try:
        page.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError as e:
        utf8 = False
        check(what + ": the page is valid UTF-8", False, str(e))
    if utf8:
        check(what + ": the page is valid UTF-8", True)
    ctl = re.findall(rb"[\x00-\x08\x0b-\x1f\x7f]", page)
    check(what + ": no control byte in the page", not ctl, repr(ctl[:5]))
    raw = [t for t in list(tags) + list(shown) for bad in (b"<i>" + marker(t), marker(t) + b"&zz") if bad in page]
    raw += [b"quote"] if b"\" onx=\"" in page else []
    check(what + ": no < & \" of the texts left raw in the page", not raw, repr(raw[:3]))
    for t in tags:
        s = next((s for s in svgs if marker(t) in s), b"")
        i = s.find(marker(t))
        check(what + ": " + t.decode() + " in the SVG as entities",
              b"&lt;i&gt;" + marker(t) + b"&amp;zz" in s, repr(s[max(0, i - 40):i + 60]))


try:
    # --- stored runs: job names, labels, the host name ---------------------
    # a selection is K=V[,K=V...] (or K=V K=V in one word): its value
    # holds no ',' or space (the canaries' spaces are tabs there); a job
    # option's value reserves '(' and ')' for fio's arithmetic (refused
    # below); a job file's section name is printable ASCII but ; # [ ]
    lab_a = evil(b"la", b", ", b"\t")
    lab_b = evil(b"lb", b", ", b"\t")
    r = ib([b"run", b"--name=a$(touch dl_x)", b"--filename=" + os.fsencode(os.path.join(tmp, "f")),
            b"--size=1m", b"--runtime=1", b"--output-format=terse"])
    check("a job name with $( is refused (fio's arithmetic in option values)",
          r.returncode != 0 and b"arithmetic" in r.stderr, r.stderr.decode(errors="replace"))
    host = b"h`touch bq_h`$(touch dl_h)@x;\n <i>" + marker(b"h") + b"&zz;\" onx=\"\x01\xff"
    host = host[:64]
    jobfile = os.path.join(tmp, "j.fio")
    open(jobfile, "wb").write(b"[" + evil(b"js", bytes(range(1, 32)) + bytes(range(127, 256)) + b";#[]") + b"]\nfilename=" +
                              os.fsencode(os.path.join(tmp, "f2")) + b"\nsize=1m\nbs=4k\n"
                              b"rw=randwrite\nruntime=1\n")
    for lab in (lab_a, lab_b):
        r = ib([b"run", b"--name=" + evil(b"jn", b"()"), b"--filename=" + os.fsencode(os.path.join(tmp, "f")),
                b"--size=1m", b"--bs=4k", b"--rw=randwrite", b"--runtime=1", b"--output-format=terse",
                b"--label", b"k=" + lab, os.fsencode(jobfile)], host=host)
        check("run with the text in its job names, label and host: stored", r.returncode == 0,
              r.stderr.decode(errors="replace")[-400:])
    out = os.path.join(tmp, "runs.html")
    r = ib([b"report", b"k=" + lab_a, b"k=" + lab_b, b"-o", os.fsencode(out)])
    page_checks("report of the stored runs", out, r, [b"la", b"lb", b"jn"], [b"js"])
    page = open(out, "rb").read() if os.path.exists(out) else b""
    check("the job file's section name is in the page, escaped", b"&lt;i&gt;" + marker(b"js") in page)
    check("the host name is in the page, escaped", b"&lt;i&gt;" + marker(b"h") in page)

    # --- --from: file names and an imported fio JSON's job names -----------
    src = os.path.join(tmp, "src.json")
    r = ib([b"run", b"--name=plain", b"--filename=" + os.fsencode(os.path.join(tmp, "g")),
            b"--size=1m", b"--bs=4k", b"--rw=randread", b"--runtime=1", b"--no-store",
            b"--output-format=json", b"--output=" + os.fsencode(src)])
    check("a JSON output to import", r.returncode == 0 and os.path.getsize(src) > 0)
    d = json.load(open(src))
    # raw bytes in the job name, as a fio JSON file may hold them
    d["jobs"][0]["jobname"] = evil(b"fj").decode("latin-1")
    fdir = os.path.join(tmp, "from")
    os.mkdir(fdir)
    # a file name holds no '/' (and --from's FILE,FILE no ','); at most 255
    # bytes: the low and the high half of the bytes in two names
    names = [canaries(b"f%d" % i, b"/,") + bytes(b for b in range(lo, hi) if b not in b"/,")
             for i, (lo, hi) in enumerate(((1, 86), (86, 171), (171, 256)))]
    paths = [os.path.join(os.fsencode(fdir), n) for n in names]
    open(paths[0], "wb").write(json.dumps(d, ensure_ascii=False).encode("latin-1"))
    d["jobs"][0]["jobname"] = "plain"
    for p in paths[1:]:
        open(p, "wb").write(json.dumps(d).encode())
    out = os.path.join(tmp, "from.html")
    r = ib([b"report", b"--from"] + paths + [b"-o", os.fsencode(out)])
    page_checks("report --from", out, r, [b"f0", b"f1", b"f2"], [b"fj"])
    page = open(out, "rb").read() if os.path.exists(out) else b""
    check("the imported job name is in the page, escaped", b"&lt;i&gt;" + marker(b"fj") in page)

    # --- a sweep's factor levels -------------------------------------------
    # a plan line ends at a line feed, '|' separates levels, ';' and '#'
    # start comments, quotes quote: those are the plan's syntax, every other
    # byte is a level
    sd = os.path.join(tmp, "sd")
    os.mkdir(sd)
    job = os.path.join(tmp, "job.fio")
    open(job, "w").write("[w]\nioengine=psync\nsize=256k\nbs=64k\nrw=write\n")

    def level(tag):
        return evil(tag, b"\n\r|;#\"'")
    plan = os.path.join(tmp, "s.plan")
    open(plan, "wb").write(b"[target]\ndir = " + os.fsencode(sd) + b"\n[factors]\njob.description = " +
                           level(b"s1") + b" | " + level(b"s2") + b"\n[workload]\njob = " +
                           os.fsencode(job) + b"\n[design]\ntype = full\ngoal = write bw\n")
    r = ib([b"sweep", os.fsencode(plan), b"--db=" + os.fsencode(db)])
    check("the sweep with the text in its levels: exit 0", r.returncode == 0,
          r.stderr.decode(errors="replace")[-600:])
    out = os.path.join(tmp, "sweep.html")
    r = ib([b"report", b"sweep:1", b"-o", os.fsencode(out)])
    page_checks("report sweep:1", out, r, [b"s1", b"s2"])
finally:
    if not os.environ.get("KEEP"): shutil.rmtree(tmp, ignore_errors=True)
    else: print("# kept " + tmp)

print("# %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
