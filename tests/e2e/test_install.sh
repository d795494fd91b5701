#!/usr/bin/env bash
# Installed like a real tool: `meson install` into a
# DESTDIR (a package build) puts the binary, the man page generated from
# the tables and the bash completion where Debian looks for them; the
# installed binary runs, `man -l` renders the installed page, and the
# installed completion offers commands, flags, job options (an engine's
# own ones too), engine names, an option's words and subcommands, all from `iobench help
# words`, so a new option is completed without touching the script.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
build=$(dirname "$IOBENCH")
DESTDIR="$d/pkg" meson install -C "$build" --no-rebuild --quiet >"$d/install.log" 2>&1; rc=$?
check "meson install into a DESTDIR (exit $rc)" test $rc -eq 0
prefix=$(meson introspect "$build" --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
root="$d/pkg$prefix"
check "the binary is installed in bin/" test -x "$root/bin/iobench"
check "... and runs" bash -c "'$root/bin/iobench' version | grep -q '^iobench [0-9]'"
check "the man page is installed in share/man/man1/" cmp -s "$root/share/man/man1/iobench.1" "$TOP/doc/iobench.1"
check "... and 'man -l' renders it" bash -c "MANWIDTH=80 man -l '$root/share/man/man1/iobench.1' 2>/dev/null | grep -q 'JOB OPTIONS'"
comp="$root/share/bash-completion/completions/iobench"
check "the bash completion is installed in share/bash-completion/completions/" test -s "$comp"
check "no test program is installed" bash -c "! find '$d/pkg' -name 'test_*' | grep -q ."

# complete LINE... : COMPREPLY of the installed completion for the words,
# the last one being completed, with the installed binary as the program
complete_words() {
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _iobench; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$comp" "$root/bin/iobench" "$@"
}
out=$(complete_words ru)
check "completion: commands ('ru' -> run; got '$out')" test "$out" = run
out=$(complete_words run --numj)
check "completion: run's job options by prefix (--numj -> --numjobs=; got '$out')" test "$out" = "--numjobs="
out=$(complete_words run --sqthread_p)
check "completion: an engine's own option (--sqthread_p -> --sqthread_poll and _cpu; got '$out')" \
  test "$(echo "$out" | sort | tr '\n' ' ')" = "--sqthread_poll= --sqthread_poll_cpu= "
out=$(complete_words run --ioengine=io_)
check "completion: engine names after --ioengine= (got '$out')" test "$out" = "--ioengine=io_uring"
out=$(complete_words run --rw=randr)
check "completion: an option's words after its '=' (--rw=randr -> randread, randrw; got '$out')" \
  test "$(echo "$out" | sort | tr '\n' ' ')" = "--rw=randread --rw=randrw "
out=$(complete_words run --stat_type=l)
check "completion: an engine option's words (--stat_type=l -> lstat; got '$out')" test "$out" = "--stat_type=lstat"
out=$(complete_words run --bs=4)
check "completion: nothing after the '=' of an option without words (got '$out')" test -z "$out"
out=$(complete_words run --output-f)
check "completion: run's flags (--output-f -> --output-format=; got '$out')" test "$out" = "--output-format="
out=$(complete_words bonnie -)
check "completion: bonnie's letters (-d, -s, -n among them)" \
  bash -c "for w in -d -s -n; do grep -qx -- \"\$w\" <<<'$out' || exit 1; done"
out=$(complete_words results ex)
check "completion: results' subcommands (ex -> export; got '$out')" test "$out" = "export"
"$IOBENCH" help words nothing >/dev/null 2>"$d/w.err"; rc=$?
check "help words with an unknown topic: exit 1 with the topics" \
  bash -c "[ $rc -eq 1 ] && grep -q 'give commands, flags CMD' '$d/w.err'"
# every job option of the table and every engine option is offered
"$IOBENCH" help words values nosuchopt >/dev/null 2>"$d/v.err"; rc=$?
check "help words values with no such option: exit 1 naming it" \
  bash -c "[ $rc -eq 1 ] && grep -q \"not 'nosuchopt'\" '$d/v.err'"
n_opts=$("$IOBENCH" help words options | wc -l)
check "help words options: every spelling of the table and the engines' rows ($n_opts)" test "$n_opts" -gt 100
finish
