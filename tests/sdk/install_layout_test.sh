#!/usr/bin/env bash
# install_layout_test.sh BUILD_DIR LIBDIR HAVE_MAN CMAKE_GENERATOR CXX_COMPILER
# What an install holds and how it behaves on its own: install BUILD_DIR into a temporary
# prefix; the plugins lie in LIBDIR/solvent (CMAKE_INSTALL_LIBDIR, lib/<multiarch> under /usr),
# solvent.pc carries no rpath, the example configs and docs are under share/, the man page
# (where help2man was found: HAVE_MAN) is installed; the installed command runs an installed
# example config with the installed plugins only; and a consumer project finds the SDK with
# find_package(Solvent) while doctest cannot be found. SOLVENT_SANITIZER_FLAGS: the compiler
# flags of the sanitizer build, for the consumer.
set -euo pipefail
build=$1 libdir=$2 have_man=$3 generator=$4 cxx=$5
work=$(mktemp -d "${TMPDIR:-/tmp}/solvent-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset SOLVENT_PLUGIN_PATH LD_LIBRARY_PATH
prefix=$work/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }
step() { printf '\n== %s\n' "$*"; }

step "install into $prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"

step "the plugins in $libdir/solvent, and nowhere else"
plugin_dir=$prefix/$libdir/solvent
test -f "$plugin_dir/libsolvent-angiogenesis-1d.so" || fail "no plugins in $plugin_dir"
elsewhere=$(find "$prefix" -name 'libsolvent-*.so' ! -path "$plugin_dir/*" ! -name 'libsolvent-core.so*' \
  ! -name 'libsolvent-framework.so*' ! -name 'libsolvent-testkit.so*' ! -name 'libsolvent-cuda.so*')
[ -z "$elsewhere" ] || fail "plugins outside $plugin_dir: $elsewhere"
grep -qF 'set(SOLVENT_PLUGIN_INSTALL_DIR "'"$libdir"'/solvent")' "$prefix/$libdir/cmake/Solvent/SolventConfig.cmake" \
  || fail "SolventConfig.cmake does not install a consumer's plugins to $libdir/solvent"

step "solvent.pc carries no rpath"
pc=$prefix/$libdir/pkgconfig/solvent.pc
test -f "$pc" || fail "no $pc"
if grep -nE '^[^#].*rpath' "$pc"; then fail "solvent.pc embeds an rpath"; fi

step "configs, meshes, scripts and docs under share/"
for f in share/solvent/config/angiogenesis-1d.toml share/solvent/meshes/cabin.geo \
         share/solvent/scripts/plot-profiles share/solvent/scripts/make-meshes share/doc/Solvent/README.md share/doc/Solvent/LICENSE \
         share/doc/Solvent/models/angiogenesis-1d.md; do
  test -f "$prefix/$f" || fail "not installed: $f"
done
test -x "$prefix/share/solvent/scripts/plot-profiles" || fail "plot-profiles is not executable"

step "the man page"
man_page=$prefix/share/man/man1/solvent.1
if [ "$have_man" = ON ]; then
  test -f "$man_page" || fail "no $man_page"
  # help2man's page holds the command's own usage lines and version.
  grep -qF 'solvent validate FILE' "$man_page" || fail "the man page lacks the usage of validate"
  grep -qF "$("$prefix/bin/solvent" --version | cut -d' ' -f2)" "$man_page" || fail "the man page lacks the version"
else
  echo "help2man was not found when configuring: no man page expected"
fi

step "the installed command runs an installed example config with the installed plugins only"
cd "$work"
"$prefix/bin/solvent" run "$prefix/share/solvent/config/angiogenesis-1d-banded.toml" \
  --set model.M=50 --set integrator.steps=10 --no-progress --output "$work/run" > "$work/run.log" 2>&1 \
  || { cat "$work/run.log"; fail "the installed run failed"; }
used=$(sed -n "s|^ *path = '\(.*\)'$|\1|p" "$work/run/record.toml")
[ -n "$used" ] || fail "the record names no plugin"
while read -r p; do
  case "$p" in "$plugin_dir"/*) echo "used $p" ;; *) fail "a plugin from outside the install: $p" ;; esac
done <<<"$used"
test -f "$work/run/profiles/step_00000010.csv" || fail "no profile of step 10"

step "an installed config whose mesh is not made yet names the installed script that makes it"
share=$prefix/share/solvent
set +e
"$prefix/bin/solvent" validate "$share/config/helmholtz-gmsh-cabin.toml" > "$work/mesh.txt" 2>&1
rc=$?
set -e
cat "$work/mesh.txt"
[ $rc -eq 2 ] || fail "validate exit $rc, expected 2"
grep -qF "(a shipped mesh: make it with \`$share/scripts/make-meshes -o $share/out/meshes cabin\`, which needs gmsh)" \
  "$work/mesh.txt" || fail "no command that makes the mesh"

step "a consumer finds the SDK without doctest"
mkdir -p "$work/consumer"
cat > "$work/consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(consumer CXX)
find_package(Solvent REQUIRED)
if(TARGET doctest::doctest)
  message(FATAL_ERROR "doctest was found: the test cannot tell")
endif()
message(STATUS "plugin dir: ${Solvent_PLUGIN_DIR}")
add_executable(consumer main.cpp)
target_link_libraries(consumer PRIVATE Solvent::core)
CMAKE
cat > "$work/consumer/main.cpp" <<'CPP'
#include <solvent/abi.hpp>
#include <cstdio>
int main() { std::printf("%s ABI %d\n", solvent::version_string(), SOLVENT_PLUGIN_ABI_VERSION); }
CPP
cmake -S "$work/consumer" -B "$work/consumer-build" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="${SOLVENT_SANITIZER_FLAGS-}" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_DISABLE_FIND_PACKAGE_doctest=ON > "$work/consumer.log" 2>&1 \
  || { cat "$work/consumer.log"; fail "find_package(Solvent) failed without doctest"; }
grep -F "plugin dir: $plugin_dir" "$work/consumer.log" || fail "Solvent_PLUGIN_DIR is not $plugin_dir"
cmake --build "$work/consumer-build" > "$work/consumer-build.log" 2>&1 \
  || { cat "$work/consumer-build.log"; fail "the consumer did not build"; }
"$work/consumer-build/consumer" | tee "$work/consumer.txt"
grep -qF "$("$prefix/bin/solvent" --version | cut -d' ' -f2) ABI" "$work/consumer.txt" || fail "the consumer printed another version"
echo "install layout: passed"
