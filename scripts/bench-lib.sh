# bench-lib.sh: what the speed scripts (bench-run.sh, bench-output.sh,
# bench-instructions.sh) share. It is sourced by them, not run.

# build_at COMMIT DIR builds cmd/schedlab as it is at COMMIT into DIR/base,
# from an export of the commit in DIR/base-src: an export, not a worktree,
# so that nothing is left in the repository's list of worktrees.
build_at() {
  mkdir "$2/base-src"
  git archive "$1" | tar -x -C "$2/base-src"
  (cd "$2/base-src" && go build -o "$2/base" ./cmd/schedlab)
}

# events_of BIN SCENARIO prints how many events a run of SCENARIO has, from
# its end line ("… after 2230005 events; …"), and fails, naming the calling
# script, when the line says none.
events_of() {
  local n
  n=$("$1" run --format none "$2" | sed -n 's/.* after \([0-9]*\) events;.*/\1/p')
  if [ -z "$n" ]; then
    echo "$(basename "$0" .sh): no event count in the end line of $2" >&2
    return 1
  fi
  echo "$n"
}
