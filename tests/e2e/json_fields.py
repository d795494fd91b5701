#!/usr/bin/env python3
"""Compare the key structure of an fio JSON report with an iobench one.

Usage: json_fields.py FIO.json IOBENCH.json [--extra] [--ignore PATH ...]

Prints every key path present in fio's output that is missing from
iobench's (values are ignored) and exits 1 if there is any, 0 otherwise.
Paths look like `jobs[].read.clat_ns.percentile.99.000000`; list elements
are merged, so `jobs[]` stands for every job entry. The children of "bins"
(histogram bucket values, which depend on the data) are not compared, and
neither is anything under "iobench" (iobench's own additions).
With --extra, keys that iobench has and fio lacks are listed too (as
information; they do not change the exit status). --ignore PATH skips a
path and everything below it (repeatable; `*` matches one component).
Text before the first '{' (fio's warnings) is skipped.
"""
import argparse
import fnmatch
import json
import sys

DATA_KEYED = ("bins",)  # objects whose keys are data, not structure
OWN_KEYS = ("iobench",)


def load(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    start = text.find("{")
    if start < 0:
        raise ValueError(f"{path}: no JSON object found")
    obj, _ = json.JSONDecoder().raw_decode(text[start:])
    return obj


def key_paths(node, prefix="", out=None):
    """Return the set of key paths under node."""
    if out is None:
        out = set()
    if isinstance(node, dict):
        for key, value in node.items():
            path = f"{prefix}.{key}" if prefix else key
            out.add(path)
            if key in DATA_KEYED or (not prefix and key in OWN_KEYS):
                continue
            key_paths(value, path, out)
    elif isinstance(node, list):
        for value in node:
            key_paths(value, prefix + "[]", out)
    return out


def ignored(path, patterns):
    parts = path.split(".")
    for pat in patterns:
        pparts = pat.split(".")
        if len(parts) >= len(pparts) and all(
            fnmatch.fnmatchcase(a, b) for a, b in zip(parts, pparts)
        ):
            return True
    return False


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fio_json")
    ap.add_argument("iobench_json")
    ap.add_argument("--extra", action="store_true", help="also list keys fio lacks")
    ap.add_argument("--ignore", action="append", default=[], metavar="PATH")
    args = ap.parse_args(argv)

    try:
        fio = key_paths(load(args.fio_json))
        ours = key_paths(load(args.iobench_json))
    except (OSError, ValueError) as exc:
        print(f"json_fields: {exc}", file=sys.stderr)
        return 2

    missing = sorted(p for p in fio - ours if not ignored(p, args.ignore))
    for path in missing:
        print(f"missing: {path}")
    if args.extra:
        for path in sorted(ours - fio):
            if not ignored(path, args.ignore):
                print(f"extra: {path}")
    print(f"{len(missing)} key paths of fio's missing from iobench's "
          f"({len(fio)} in fio's, {len(ours)} in iobench's)")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
