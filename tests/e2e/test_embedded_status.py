#!/usr/bin/env python3
# No test script ignores the exit status of a Python program it runs.
# A check written as a Python program (`python3 - ARGS <<'PY'`, `python3 -c
# PROGRAM`, or a checker script) that raises, or that finds nothing to check,
# exits non-zero; when the script goes on as if it had passed, the check
# cannot fail. So in tests/e2e/*.sh every python3 (or $PY) that is a
# statement of its own must have its status looked at:
#   - it is a condition (`if`, `elif`, `while`, `until`, `!`), or the
#     status goes on in an and-or list (`python3 ... || not_ok ...`,
#     `python3 ... && ok ...`), or
#   - the next statement reads `$?` (`rc=$?`), or
#   - it is the last statement of a function body, a subshell or a brace
#     group (its status is that of the whole, which the caller checks), or
#   - the script runs under `set -e`.
# One that feeds a pipe is unchecked unless the script sets pipefail; one
# inside $(...), backquotes, a quoted string (bash -c '...') or the
# arguments of another command (check DESC python3 ..., pycheck, pyrun) is
# not a statement and is left to that command. Heredoc bodies and comments
# are not code. The checker is checked first on planted scripts.
import glob
import os
import re
import sys

TOP = os.path.abspath(os.environ.get("TOP", os.path.join(os.path.dirname(__file__), "..", "..")))

HEREDOC = re.compile(r"<<(-?)\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
PYTHON = re.compile(r"^(python3|\$PY|\$\{PY\}|\"\$PY\")(\s|$)")
SEPARATORS = {"\n", ";", "&", "{", "}", "(", ")", "|", "||", "&&"}
OPENERS = {"do", "then", "else", "{", "(", "if", "elif", "while", "until", "!"}


def skeleton(text):
    """The script's top-level code as tokens: words and separators, with
    quoted strings, $(...), backquotes and heredoc bodies each made one
    word "Q", and comments dropped. Every token carries its line number."""
    toks, i, n, line = [], 0, len(text), 1
    word, wline = "", 1
    pending = []  # heredoc terminators owed after this line

    def flush():
        nonlocal word
        if word:
            toks.append((word, wline))
            word = ""

    def skip_quoted(i):
        """i at an opening quote, $( or backquote: the index after its end."""
        nonlocal line
        if text.startswith("$(", i):
            depth, i = 1, i + 2
            while i < n and depth:
                c = text[i]
                if c in "'\"`":
                    i = skip_quoted(i)
                    continue
                if text.startswith("$(", i):
                    depth += 1
                    i += 2
                    continue
                if c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                elif c == "\n":
                    line += 1
                i += 1
            return i
        q = text[i]
        i += 1
        while i < n and text[i] != q:
            if text[i] == "\\" and q != "'":
                if text[i + 1:i + 2] == "\n":
                    line += 1
                i += 2
                continue
            if q == '"' and text.startswith("$(", i):
                i = skip_quoted(i)
                continue
            if text[i] == "\n":
                line += 1
            i += 1
        return i + 1

    while i < n:
        c = text[i]
        if c == "\\" and text[i + 1:i + 2] == "\n":  # a continued line
            flush()
            i += 2
            line += 1
            continue
        if c in "'\"`" or text.startswith("$(", i):
            if not word:
                wline = line
            i = skip_quoted(i)
            word += "Q"
            continue
        if c == "#" and not word:
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c == "<" and text.startswith("<<", i) and not text.startswith("<<<", i):
            m = HEREDOC.match(text, i)
            if m:
                flush()
                pending.append((m.group(3), m.group(1) == "-"))
                toks.append(("<<", line))
                i = m.end()
                continue
        if c == "\n":
            flush()
            toks.append(("\n", line))
            i += 1
            line += 1
            for term, dash in pending:  # the heredoc bodies, in order
                while i < n:
                    end = text.find("\n", i)
                    end = n if end < 0 else end
                    body = text[i:end]
                    i = end + 1
                    line += 1
                    if (body.lstrip("\t") if dash else body) == term:
                        break
            pending = []
            continue
        if c in " \t":
            flush()
            i += 1
            continue
        if c == "&" and word and word[-1] in "<>":  # 2>&1, >&2
            word += c
            i += 1
            continue
        if c in ";&|(){}" and (c not in "{}" or not word):
            flush()
            two = text[i:i + 2]
            if two in ("||", "&&", ";;"):
                toks.append((two, line))
                i += 2
            else:
                if c == "&" and text[i + 1:i + 2] == ">":  # &> redirect
                    word, wline = "&>", line
                    i += 2
                    continue
                toks.append((c, line))
                i += 1
            continue
        if c in "<>" and not word:
            wline = line
        if not word:
            wline = line
        word += c
        i += 1
    flush()
    return toks


def statements(toks):
    """[(words, line, before, after, end)]: each simple command's words, the
    separator (or keyword) before its and-or list (`if` for the second
    command of `if a && b`) and after it, and the index in TOKS of the
    token after it."""
    out, cur, before, line, lead = [], [], "\n", 0, "\n"
    for j, (w, ln) in enumerate(toks):
        if w == "\n" and not cur and before in ("||", "&&", "|"):
            continue  # the list or pipe goes on on the next line
        if w in SEPARATORS or w == ";;" or (not cur and w in OPENERS) or \
                (not cur and w in ("fi", "done", "esac")):
            if cur:
                if before not in ("||", "&&"):
                    lead = before
                out.append((cur, line, lead, w, j))
            cur, before = [], w
            continue
        if not cur:
            line = ln
        cur.append(w)
    if cur:
        out.append((cur, line, before if before not in ("||", "&&") else lead, "\n", len(toks)))
    return out


def unchecked(text):
    """The lines of the python3 statements whose status nobody looks at."""
    if re.search(r"^\s*set\s+-[a-z]*e", text, re.M):
        return []
    pipefail = re.search(r"^\s*set\s+.*-o\s+pipefail", text, re.M) is not None
    toks = skeleton(text)
    sts = statements(toks)
    bad = []
    for k, (words, line, before, after, end) in enumerate(sts):
        if not PYTHON.match(words[0] + " "):
            continue
        if before in ("if", "elif", "while", "until", "!") or after in ("||", "&&"):
            continue  # a condition, or its status goes on in the list
        if after == "&":
            continue  # in the background: its status is wait's
        if after == "|":  # feeds a pipe: the pipe's status is the last command's
            if not pipefail:
                bad.append(line)
            continue
        # after a ';' or a newline: the next token that is neither
        j = end
        while j < len(toks) and toks[j][0] in ("\n", ";"):
            j += 1
        if j < len(toks) and toks[j][0] in ("}", ")"):
            continue  # the last statement of a body: its status is the whole's
        if k + 1 < len(sts) and any("$?" in w for w in sts[k + 1][0]):
            continue  # rc=$?, or test $? -eq 0
        bad.append(line)
    return bad


results = []


def check(cond, what):
    results.append(bool(cond))
    print(("ok - " if cond else "not ok - ") + what)


# ---- the checker on planted scripts ----
PLANTED = r'''#!/usr/bin/env bash
. lib.sh
python3 - "$d" <<'PY'
print("ok - unchecked heredoc")
PY
python3 -c 'import sys; sys.exit(1)' "$f" >"$d/out"
python3 - "$d" <<'PY' || not_ok "checked"
print(1)
PY
if python3 -c 'print(1)'; then ok x; fi
python3 -c "
multi
line" "$x"
rc=$?
f() { python3 - "$1" <<'PY'
print(1)
PY
}
g() {
  python3 -c 'x' "$1"
  echo done
}
x=$(python3 -c 'print(2)')
check "desc" python3 -c 'print(1)'
python3 -c 'print(1)' | sort
for t in a b; do python3 -c "$P" "$t" >"$d/$t"; done
$PY - <<'PY' && ok "checked"
PY
cat f | python3 -c 'x'
echo "python3 -c 'not code'"
'''
want = [3, 6, 20, 25, 26, 29]
got = unchecked(PLANTED)
check(got == want, f"the checker on a planted script: the unchecked python3 statements "
      f"found at lines {want} and no other (found {got})")
check(unchecked("set -euo pipefail\npython3 -c 'x'\n") == [],
      "the checker on a planted script under set -e: nothing is unchecked")

# ---- the tree ----
bad = []
scripts = sorted(glob.glob(os.path.join(TOP, "tests", "e2e", "*.sh")))
for p in scripts:
    for ln in unchecked(open(p, encoding="utf-8").read()):
        bad.append(f"{os.path.relpath(p, TOP)}:{ln}")
check(len(scripts) > 20, f"the end-to-end scripts are there ({len(scripts)})")
check(not bad, f"every python3 a test script runs as a statement has its exit status looked at "
      f"({len(bad)} not: {', '.join(bad)})")
sys.exit(0 if all(results) else 1)
