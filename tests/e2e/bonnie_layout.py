#!/usr/bin/env python3
"""Compare where bon_csv2html and bon_csv2txt put each figure of two CSV
lines: bonnie++ 2.00a's (REF) and iobench bonnie's (OURS), run with the
same flags. Numbers differ between runs; what must agree is which columns
hold something and which are blank, the size and file-count cells, and that
neither tool complains. Allowed differences, both bonnie++ 2.00a defects
iobench fixes: OURS fills io_chunk_size (an extra "Chunk Size" column in
the HTML and "SIZE:CHUNK" in the text), and OURS puts the number of
directories in num_dirs where bonnie++ writes it into file_chunk_size.

usage: bonnie_layout.py REF_CSV_FILE OURS_CSV_FILE   (exit 0 = same layout)
"""
import html.parser
import re
import subprocess
import sys


class Table(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            a = dict(attrs)
            self.cell = [int(a.get("colspan", 1)), int(a.get("rowspan", 1)), ""]

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.rows[-1].append(tuple(self.cell))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[2] += data


def run(tool, csv):
    p = subprocess.run([tool], input=csv, capture_output=True, text=True)
    return p.stdout, p.stderr.strip()


def html_cells(csv):
    """{label: value} of the data row, labels from the second header row."""
    out, err = run("bon_csv2html", csv)
    t = Table()
    t.feed(out)
    rows = [r for r in t.rows if r]
    # lay the cells out on a grid, honouring colspan and rowspan
    grid, taken = [], {}
    for y, row in enumerate(rows):
        line, x = {}, 0
        for span, rspan, text in row:
            while (y, x) in taken:
                line[x] = taken[(y, x)]
                x += 1
            for k in range(span):
                cell = (text.strip(), k, span)
                line[x + k] = cell
                for dy in range(1, rspan):
                    taken[(y + dy, x + k)] = cell
            x += span
        while (y, x) in taken:
            line[x] = taken[(y, x)]
            x += 1
        grid.append(line)
    labels, seen, prev = {}, {}, None
    for x in sorted(grid[1]):
        text, k, span = grid[1][x]
        text = text or "blank"
        if k == 0:
            seen[text] = seen.get(text, 0) + 1
        labels[x] = f"{text}#{seen[text]}" + (f".{k}" if span > 1 else "")
    data = grid[3]
    if sorted(data) != sorted(labels):
        return None, f"{len(data)} data columns under {len(labels)} header columns", err
    return {labels[x]: data[x][0] for x in sorted(data)}, None, err


def same_width(csv):
    """The CSV line with every figure that holds something made one
    character wide ('9', a latency '9us'): bon_csv2txt prints its cells
    with %5s and %3s, and a wider figure (a 7-digit K/sec of a page-cached
    phase) pushes the cells after it out of their columns. What is compared
    is which cells hold something, not how wide the numbers are."""
    out = []
    for line in csv.splitlines():
        f = line.split(",")
        if len(f) == 50:
            for i in list(range(9, 21)) + list(range(26, 38)):
                f[i] = "9" if f[i] else ""
            for i in range(38, 50):
                f[i] = "9us" if f[i] else ""
        out.append(",".join(f))
    return "\n".join(out) + "\n"


def txt_fields(csv):
    """(section, description, cells) of bon_csv2txt's lines, cut at its
    fixed columns: %19s, then %5s %3s pairs (Latency: %9s cells)."""
    out, err = run("bon_csv2txt", same_width(csv))
    res, section = [], "io"
    for line in out.splitlines():
        if "Sequential Create" in line:
            section = "file"
        if line.startswith("Latency"):
            cols = [line[18 + 10 * i:18 + 10 * (i + 1)].strip() for i in range(6)]
            res.append((section, "Latency", cols))
        elif re.match(r"^\S.{18} ", line) and not line.startswith(("Version", "Name:")) and "/sec" not in line:
            cols = []
            pos = 20
            for i in range(12):
                w = 5 if i % 2 == 0 else 3
                cols.append(line[pos:pos + w].strip())
                pos += w + 1
            res.append((section, line[:19].strip(), cols))
    return res, err


def same_desc(section, ref, our):
    """The name and size cell; ours adds the I/O chunk size (SIZE:CHUNK:..)
    and writes dirs as "/D" where bonnie++'s misplaced field gives ":D"."""
    rn, rs = ref.split()[0], ref.split()[-1]
    on, os_ = our.split()[0], our.split()[-1]
    if section == "io":
        r, o = rs.split(":"), os_.split(":")
        return r[0] == o[0] and r[2:] == o[2:] and rn[:4] == on[:4]
    return rs.replace("/", ":") == os_.replace("/", ":") and rn[:4] == on[:4]


def compare(ref_csv, our_csv):
    problems = []
    ref, e1, err1 = html_cells(ref_csv)
    our, e2, err2 = html_cells(our_csv)
    for who, e, err in (("bonnie++", e1, err1), ("iobench", e2, err2)):
        if e:
            problems.append(f"bon_csv2html on {who}'s line: {e}")
        if err:
            problems.append(f"bon_csv2html complained about {who}'s line: {err}")
    if ref and our:
        ref = dict(ref)
        # bonnie++ 2.00a never fills io_chunk_size and writes num_dirs into
        # file_chunk_size, so a "Chunk Size" column in its table is the dirs
        if "Chunk Size#1" in ref:
            ref["Num Dirs#1"] = ref.pop("Chunk Size#1")
        for k, v in ref.items():
            if k not in our:
                problems.append(f"html column '{k}' (bonnie++: '{v}') missing in iobench's table")
            elif (v == "") != (our[k] == ""):
                problems.append(f"html column '{k}': bonnie++ '{v}', iobench '{our[k]}'")
            elif k.startswith(("Size", "Num Files", "Max Size", "Min Size", "Num Dirs")) and v != our[k]:
                problems.append(f"html column '{k}': bonnie++ '{v}', iobench '{our[k]}'")
        extra = [k for k in our if k not in ref]
        for k in extra:
            if not k.startswith("Chunk Size"):
                problems.append(f"html column '{k}' only in iobench's table")
    rt, err1 = txt_fields(ref_csv)
    ot, err2 = txt_fields(our_csv)
    for who, err in (("bonnie++", err1), ("iobench", err2)):
        if err:
            problems.append(f"bon_csv2txt complained about {who}'s line: {err}")
    if len(rt) != len(ot):
        problems.append(f"bon_csv2txt: {len(rt)} table lines from bonnie++, {len(ot)} from iobench")
    for (sec, rd, rc), (osec, od, oc) in zip(rt, ot):
        if sec != osec:
            problems.append(f"bon_csv2txt: bonnie++'s {sec} line '{rd}' faces iobench's {osec} line '{od}'")
            continue
        for i, (a, b) in enumerate(zip(rc, oc)):
            if (a == "") != (b == ""):
                problems.append(f"bon_csv2txt {sec} '{rd}' column {i + 1}: bonnie++ '{a}', iobench '{b}'")
        if rd != "Latency" and not same_desc(sec, rd, od):
            problems.append(f"bon_csv2txt description: bonnie++ '{rd}', iobench '{od}'")
    return problems


def main():
    ref_csv = open(sys.argv[1]).read().strip().splitlines()[-1] + "\n"
    our_csv = open(sys.argv[2]).read().strip().splitlines()[-1] + "\n"
    problems = compare(ref_csv, our_csv)
    for p in problems:
        print("  " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
