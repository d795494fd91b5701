# fio 3.33's source tree (its t/ scripts and job files) for tests that run
# fio's own test suite (sourced, not run). fio_src prints the tree's path:
# Debian's fio source package is fetched with apt-get through a private
# deb-src list, list and cache directories (the machine's apt configuration
# is read for its mirror, never changed), its .orig.tar.gz unpacked under
# build/fio-src/ and kept there for the next run. A lock makes tests that
# call it side by side fetch it once. Nothing of fio's code is kept in the
# repository. A config-host.h says what Debian's fio was built with.
FIO_SRC_VER=3.33

# the mirror this machine's apt uses for Debian's main archive
fio_src_mirror() {
  local u
  u=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
      tr ' ' '\n' | grep -v -e security -e '^$' | head -1)
  [ -n "$u" ] || u=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\).*/\2/p' \
      /etc/apt/sources.list 2>/dev/null | grep -v security | head -1)
  echo "${u:-http://deb.debian.org/debian}"
}

# fio_src BUILD_DIR: prints BUILD_DIR/fio-src/fio-3.33 once it holds t/
fio_src() {
  local base dir tmp rc=0
  base=$(realpath -m "$1")/fio-src
  dir=$base/fio-$FIO_SRC_VER
  mkdir -p "$base" || return 1
  (
    flock 9
    [ -f "$dir/t/run-fio-tests.py" ] && exit 0
    tmp=$(mktemp -d "$base/fetch.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT
    chmod 755 "$tmp"
    mkdir -p "$tmp/sources.list.d" "$tmp/lists/partial" "$tmp/cache/archives/partial"
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(fio_src_mirror) bookworm main" \
      >"$tmp/sources.list.d/fio-src.list"
    local o=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$tmp/sources.list.d"
             -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache" -q)
    apt-get "${o[@]}" update >"$tmp/log" 2>&1 &&
      (cd "$tmp" && apt-get "${o[@]}" source --download-only fio) >>"$tmp/log" 2>&1 ||
      { echo "fio_src: apt-get could not fetch fio's source package:" >&2; tail -5 "$tmp/log" >&2; exit 1; }
    tar -xzf "$tmp"/fio_"$FIO_SRC_VER".orig.tar.gz -C "$tmp" &&
      rm -rf "$dir" && mv "$tmp/fio-$FIO_SRC_VER" "$dir" ||
      { echo "fio_src: could not unpack fio_$FIO_SRC_VER.orig.tar.gz" >&2; exit 1; }
  ) 9>"$base/.lock" || rc=1
  [ $rc = 0 ] && [ -f "$dir/t/run-fio-tests.py" ] || return 1
  # t/run-fio-tests.py reads the build's config-host.h for what fio was
  # built with; the tree is not built, so say what Debian's fio has: libaio
  # (its tests 2, 3, 4, 6 and 15 need it), no zoned block devices (without
  # the file the runner assumes them and skips the libaio tests). Tests
  # side by side may both write it: each its own temporary, renamed over
  # the other's (the same text), so none finds its temporary taken
  if [ ! -f "$dir/config-host.h" ]; then
    fio --enghelp 2>/dev/null | grep -qx '[[:space:]]*libaio' || { echo "fio_src: Debian's fio has no libaio engine" >&2; return 1; }
    printf '/* written by iobench tests/e2e/fio_src.sh: what Debian fio %s was built with, as t/run-fio-tests.py reads it */\n#define CONFIG_LIBAIO\n' \
      "$FIO_SRC_VER" >"$dir/config-host.h.$$" && mv "$dir/config-host.h.$$" "$dir/config-host.h" || return 1
  fi
  echo "$dir"
}
