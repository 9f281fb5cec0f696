#!/usr/bin/env bash
# third_party_plugin.sh BUILD_DIR EXAMPLE_DIR CMAKE_GENERATOR CXX_COMPILER
# The whole third-party path of the SDK: install Solvent from BUILD_DIR into a temporary
# prefix, copy EXAMPLE_DIR out of the source tree, build it against the install only, run
# its conformance test, and run an experiment with the plugin through the installed
# `solvent`, checked against the same experiment solved by the in-tree gepp-cpu.
# SOLVENT_SANITIZER_FLAGS: the compiler flags of the sanitizer build, for what is built here.
set -euo pipefail
build=$1
example=$2
generator=$3
cxx=$4
fixture=$(dirname "$0")/fixture_plugin.cpp
work=$(mktemp -d "${TMPDIR:-/tmp}/solvent-sdk.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Only what this script puts on the path may be found.
unset SOLVENT_PLUGIN_PATH
step() { printf '\n== %s\n' "$*"; }

step "install into $work/prefix"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for header in solvent.hpp plugin.hpp abi.hpp testkit.hpp; do
  test -f "$prefix/include/solvent/$header"
done
# The framework's private headers (core/src) stay out of the SDK.
for private in plugin_registry.hpp plugin_library.hpp config_validation.hpp run_driver.hpp; do
  if [ -e "$prefix/include/solvent/$private" ] || [ -e "$prefix/include/$private" ]; then
    echo "private header $private was installed" >&2
    exit 1
  fi
done
libdir=$(dirname "$(find "$prefix" -name SolventConfig.cmake -printf '%h')")
libdir=$(dirname "$libdir")

step "every installed plugin loads from the install"
plugins=$("$prefix/bin/solvent" plugins)
printf '%s\n' "$plugins"
if grep -q '^skipped:' <<<"$plugins"; then
  echo "the install has plugins that do not load" >&2
  exit 1
fi

step "build the example out of tree against the install"
cp -r "$example" "$work/example"
cmake -S "$work/example" -B "$work/example-build" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="${SOLVENT_SANITIZER_FLAGS-}" -DCMAKE_PREFIX_PATH="$prefix" > "$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/example-build"
plugin_dir=$work/example-build/lib/solvent
test -f "$plugin_dir/libsolvent-acme-jacobi.so"

step "its conformance test"
ctest --test-dir "$work/example-build" --output-on-failure

step "pkg-config: every installed header compiles from the install alone; a plugin built by hand loads"
export PKG_CONFIG_PATH=$libdir/pkgconfig
cflags=$(pkg-config --cflags solvent)
libs=$(pkg-config --libs solvent)
# The contract (include/solvent) and every toolbox folder below it; the .cuh headers are
# for nvcc alone.
(cd "$prefix/include" && find solvent -name '*.hpp' | sort) | while read -r header; do
  echo "#include <$header>"
done > "$work/all_headers.cpp"
# The shell re-reads the flags, as make does, so SOLVENT_VERSION keeps its quotes.
sh -c "$cxx -std=c++20 -fsyntax-only ${SOLVENT_SANITIZER_FLAGS-} $cflags $work/all_headers.cpp"
mkdir -p "$work/by-hand"
sh -c "$cxx -std=c++20 -shared -fPIC -fvisibility=hidden ${SOLVENT_SANITIZER_FLAGS-} $cflags \
  '-DFIXTURE_NAME=\"sdk-by-hand\"' '-DFIXTURE_SUMMARY=\"built with pkg-config\"' \
  -DFIXTURE_ABI_VERSION=SOLVENT_PLUGIN_ABI_VERSION -DFIXTURE_SOLVENT_VERSION=SOLVENT_VERSION \
  $fixture -o $work/by-hand/libsolvent-sdk-by-hand.so $libs"
by_hand=$(SOLVENT_PLUGIN_PATH=$work/by-hand "$prefix/bin/solvent" plugins)
grep -F "$work/by-hand/libsolvent-sdk-by-hand.so" <<<"$by_hand"
if grep -q '^skipped:' <<<"$by_hand"; then
  echo "the plugin built with pkg-config's flags was skipped" >&2
  exit 1
fi

step "the installed solvent finds, describes and runs it"
export SOLVENT_PLUGIN_PATH=$plugin_dir
"$prefix/bin/solvent" plugins | grep -F "$plugin_dir/libsolvent-acme-jacobi.so"
"$prefix/bin/solvent" describe acme-jacobi | tee "$work/describe.txt"
grep -q 'max_iterations' "$work/describe.txt"
cd "$work"
"$prefix/bin/solvent" run example/jacobi.toml --output jacobi --no-progress
# The reference: the same experiment with the direct solver (and without Jacobi's keys).
sed -e 's/"acme-jacobi"/"gepp-cpu"/' -e '/^tolerance/d' -e '/^max_iterations/d' example/jacobi.toml > gepp.toml
"$prefix/bin/solvent" run gepp.toml --output gepp --no-progress
grep -q 'acme-jacobi' jacobi/record.toml

step "the Jacobi trajectory agrees with the direct solver's"
last=$(ls jacobi/profiles | sort | tail -n 1)
paste -d, "jacobi/profiles/$last" "gepp/profiles/$last" | awk -F, '
  NR == 1 { half = NF / 2; next }
  { for (i = 2; i <= half; ++i) { d = $i - $(i + half); if (d < 0) d = -d; if (d > max) max = d } }
  END { printf "max |u_jacobi - u_gepp| at the last step: %.3e\n", max; exit !(max < 1e-9) }'

step "installed next to Solvent's own plugins, it is found without SOLVENT_PLUGIN_PATH"
cmake --install "$work/example-build" --prefix "$prefix" > /dev/null
installed=$prefix/lib/solvent/libsolvent-acme-jacobi.so
SOLVENT_PLUGIN_PATH= "$prefix/bin/solvent" plugins | grep -F "$installed"
SOLVENT_PLUGIN_PATH= "$prefix/bin/solvent" validate example/jacobi.toml

step "with the build's copy first on the path too, the build's copy is used, the installed one shadowed"
"$prefix/bin/solvent" plugins | tee "$work/shadowed.txt"
grep -F "  $installed: linear_solver 'acme-jacobi', used from $plugin_dir/libsolvent-acme-jacobi.so" \
  "$work/shadowed.txt"
"$prefix/bin/solvent" validate example/jacobi.toml 2>&1 | tee "$work/validate.txt"
grep -F "linear_solver plugin 'acme-jacobi': using $plugin_dir/libsolvent-acme-jacobi.so; $installed, later on the search path, is not used" \
  "$work/validate.txt"

step "a path as type is refused"
set +e
refused=$("$prefix/bin/solvent" validate example/jacobi.toml --set "linear_solver.type=$installed" 2>&1)
rc=$?
set -e
printf '%s\n' "$refused"
test "$rc" -eq 2
grep -F "error: --set: [linear_solver]: type '$installed' is a path; plugin types are names; add the directory to [plugins] path" <<<"$refused"
