# Sourced by ci/test.sh and ci/test-mpi.sh (bash): the CTest run of one
# build, with one more try for a failed test.
# run_ctest DIR [ARGS]: the suite of one build. A test that fails is run once
# more: failing again fails CI; passing the second time, it is reported as
# flaky (a rare launcher or oversubscription failure) and CI goes on. Either
# way its first output is printed again at the end of the log, so the part of
# the log that CI keeps shows what failed.
flaky=()
run_ctest() {
  local dir=$1; shift
  rm -f "$dir/first-failure.log"
  (cd "$dir" && ctest --output-on-failure "$@") && return 0
  local failed=$dir/Testing/Temporary/LastTestsFailed.log
  [[ -s $failed ]] || return 1
  local names name; names=$(cut -d: -f2 "$failed" | paste -sd' ')
  for name in $names; do  # each failed test's section of CTest's log, its last 80 lines
    awk -v t="$name" '$0 ~ ("Testing: " t "$") {p = 1} p {print} p && index($0, "\"" t "\" end time") {p = 0}' \
      "$dir/Testing/Temporary/LastTest.log" | tail -n 80
  done >"$dir/first-failure.log"
  echo "== $dir: failed: $names; running them once more"
  if (cd "$dir" && ctest --rerun-failed --output-on-failure); then
    flaky+=("$dir: $names (first output in $dir/first-failure.log)")
    return 0
  fi
  return 1
}

# report_ctest GLOB: the flaky tests, and each build's first failure output.
report_ctest() {
  local f log
  for f in "${flaky[@]}"; do echo "== flaky (failed once, passed when run again): $f"; done
  for log in $1/first-failure.log; do
    [[ -f $log ]] || continue
    echo "== the first failure's output, $log"
    cat "$log"
  done
}
