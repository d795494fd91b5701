#!/usr/bin/env python3
"""Diff the key sets and value types of an fio JSON report and iobench's.

Usage: json_keys.py FIO.json IOBENCH.json

Both ways: every key path of fio's report must be in iobench's, and every
key path of iobench's must be in fio's, except under the top-level
"iobench" object (iobench's own additions). Paths look like
`jobs[].read.clat_ns.percentile.99.000000`; list elements are merged
(`jobs[]` stands for every job entry). The children of "bins" (json+
histogram buckets: their keys are latencies, i.e. data) are compared as
one `<ns>` key. The value type (int, float, str, bool, null, object,
array) of each common path must be the same set in both reports.
Prints each difference and exits 1 if there is any, 0 otherwise.
"""
import json
import sys

DATA_KEYED = ("bins",)


def load(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    start = text.find("{")  # fio may print warnings before its JSON
    if start < 0:
        raise ValueError(f"{path}: no JSON object found")
    obj, _ = json.JSONDecoder().raw_decode(text[start:])
    return obj


def tname(v):
    if isinstance(v, bool):
        return "bool"
    if v is None:
        return "null"
    return {int: "int", float: "float", str: "str", dict: "object", list: "array"}[type(v)]


def walk(node, prefix, out):
    """out: path -> set of value type names"""
    if isinstance(node, dict):
        for key, value in node.items():
            if not prefix and key == "iobench":
                continue
            path = f"{prefix}.{key}" if prefix else key
            out.setdefault(path, set()).add(tname(value))
            if key in DATA_KEYED and isinstance(value, dict):
                for v in value.values():
                    out.setdefault(path + ".<ns>", set()).add(tname(v))
                continue
            walk(value, path, out)
    elif isinstance(node, list):
        for value in node:
            out.setdefault(prefix + "[]", set()).add(tname(value))
            walk(value, prefix + "[]", out)
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    f = walk(load(sys.argv[1]), "", {})
    i = walk(load(sys.argv[2]), "", {})
    bad = 0
    for p in sorted(set(f) - set(i)):
        print(f"only in fio:     {p}")
        bad += 1
    for p in sorted(set(i) - set(f)):
        print(f"only in iobench: {p}")
        bad += 1
    for p in sorted(set(f) & set(i)):
        if f[p] != i[p]:
            print(f"type differs:    {p}: fio {sorted(f[p])}, iobench {sorted(i[p])}")
            bad += 1
    print(f"{len(f)} fio paths, {len(i)} iobench paths, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
