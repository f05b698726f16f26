# Sourced by the scripts' checks (interface_parity_check.sh,
# preload_overhead_check.sh): check REGEX ARGS... runs "$py" "$script" with
# --build "$build" --mpi "$mpi" and ARGS, and sets fail=1 unless it exits 2
# with exactly one line on stderr that matches REGEX.
check() {
  local want=$1; shift
  local err rc
  err=$("$py" "$script" --build "$build" --mpi "$mpi" "$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -ne 2 || $(wc -l <<<"$err") -ne 1 || ! $err =~ $want ]]; then
    echo "FAIL: $(basename "$script") $*: exit $rc, stderr: $err"; fail=1
  fi
}
