#!/usr/bin/env bash
# Makes a release-like MPICH tarball (configure generated, submodules in
# place) from git repositories, for scripts/mpi/build-mpi.sh's
# MCB_MPI_TARBALL where Debian's mirror lacks the source package (2026-12-02:
# trixie's mpich 4.3.0+really4.2.1-1 listed, its files answered 404).
#   scripts/mpi/mpich-tarball-from-git.sh MPICH_GIT TAG OUT.tar.gz [NAME=GIT ...]
# MPICH_GIT: a git directory of pmodels/mpich holding TAG (v4.2.1). Each
# NAME=GIT gives the git directory of the submodule modules/NAME (yaksa,
# json-c, hwloc, libfabric, ucx), from which the commit that TAG pins is
# taken; a submodule not given is left out of autogen.sh (-without-NAME:
# configure then needs the system's, as build-mpi.sh's --with-libfabric=/usr
# and --with-hwloc=/usr). mpich-4.2.1-ofi needs yaksa, json-c and
# libfabric (v4.2.1's autogen.sh stops on a libfabric that is not checked
# out even where configure then takes Debian's); the builds here gave hwloc
# too.
# Then: MCB_MPI_TARBALL=OUT.tar.gz scripts/mpi/build-mpi.sh mpich-4.2.1-ofi
# Needs git, autoconf, automake, libtool (Debian's), python3; about 4
# minutes on 2 cores. Bad input: one line, exit 2.
set -euo pipefail
me=mpich-tarball-from-git
die2() { echo "$me: $*" >&2; exit 2; }
[[ $# -ge 3 ]] || die2 "usage: mpich-tarball-from-git.sh MPICH_GIT TAG OUT.tar.gz [NAME=GIT ...]"
git_dir=$1 tag=$2 out=$3
shift 3
for tool in git autoconf automake libtoolize python3 tar; do
  command -v "$tool" >/dev/null || die2 "no $tool on the PATH (apt-get install git autoconf automake libtool python3)"
done
git --git-dir="$git_dir" rev-parse --verify -q "$tag^{commit}" >/dev/null || die2 "$git_dir has no tag $tag"
version=${tag#v}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/mpich-$version
mkdir -p "$src"
git --git-dir="$git_dir" archive "$tag" | tar -x -C "$src"
declare -A given=()
for a in "$@"; do
  [[ $a == *=* ]] || die2 "$a: expected NAME=GIT"
  given[${a%%=*}]=${a#*=}
done
without=()
while read -r _ kind commit path; do
  [[ $kind == commit && $path == modules/* ]] || continue
  name=${path#modules/}
  if [[ -z ${given[$name]:-} ]]; then
    without+=("-without-$name")
    continue
  fi
  git --git-dir="${given[$name]}" cat-file -e "$commit^{commit}" 2>/dev/null ||
    die2 "${given[$name]} has no commit $commit (what $tag pins for $path)"
  rm -rf "${src:?}/$path" && mkdir -p "$src/$path"
  git --git-dir="${given[$name]}" archive "$commit" | tar -x -C "$src/$path"
  echo "$me: $path at $commit"
done < <(git --git-dir="$git_dir" ls-tree "$tag" modules/)
# With the Fortran bindings (build-mpi.sh builds MPICH with Fortran since
# issue 73): -without-fortran left mpi_f08_compile_constants.f90.in empty,
# and the build stopped at its missing module.
(cd "$src" && ./autogen.sh "${without[@]}" >"$work/autogen.log" 2>&1) ||
  { tail -n 30 "$work/autogen.log"; exit 1; }
tar -czf "$out" -C "$work" "mpich-$version"
echo "$me: $out (MPICH $version from $tag${without:+, autogen ${without[*]}})"
