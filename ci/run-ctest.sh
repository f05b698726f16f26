# Sourced by ci/test.sh and ci/test-mpi.sh (bash, with pipefail): the CTest
# run of one build, with one more try for a failed test, and the times.
# run_ctest DIR [ARGS]: the suite of one build. A test that fails is run once
# more: failing again fails CI; passing the second time, it is reported as
# flaky (a rare launcher or oversubscription failure) and CI goes on. Either
# way its first output is printed again at the end of the log, so the part of
# the log that CI keeps shows what failed. CTest's lines of the first run are
# kept in DIR/ctest.log for report_times.
flaky=()
run_ctest() {
  local dir=$1; shift
  rm -f "$dir/first-failure.log"
  (cd "$dir" && ctest --output-on-failure "$@" | tee ctest.log) && return 0
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

# timed LABEL COMMAND...: runs COMMAND (a function too) and keeps its wall
# time under LABEL for report_times; returns COMMAND's status.
steps=()
timed() {
  local label=$1 start=$SECONDS rc=0
  shift
  "$@" || rc=$?
  steps+=("$label:$((SECONDS - start))")
  return $rc
}

# report_times GLOB: each timed step's wall time, then the ten slowest tests
# of each build GLOB matches (from its ctest.log).
report_times() {
  local step dir
  echo "== wall time of each step (s)"
  for step in "${steps[@]}"; do printf '%6d  %s\n' "${step##*:}" "${step%:*}"; done
  for dir in $1; do
    [[ -f $dir/ctest.log ]] || continue
    echo "== the ten slowest tests of $dir (s)"
    # " 12/1046 Test  #11: NAME ......   Passed    1.23 sec"
    awk '$2 == "Test" && $3 ~ /^#/ && $NF == "sec" {printf "%8.1f  %s\n", $(NF-1), $4}' "$dir/ctest.log" |
      sort -rn | awk 'NR <= 10'
  done
}
