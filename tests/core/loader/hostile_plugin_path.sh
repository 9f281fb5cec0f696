#!/usr/bin/env bash
# hostile_plugin_path.sh SOLVENT MISBEHAVING_DIR WRONG_ABI_PLUGIN WORK_DIR
# A plugin folder holding every kind of file that is not a usable plugin: libraries that
# abort, segfault, hang, throw or exit while loaded, one whose schema throws, a truncated
# copy of a real library, text, a FIFO, a directory, a device, a link loop. `solvent
# plugins` must list each with its exact reason; `validate` must still check a good
# config with that folder on its [plugins] path, and refuse a path given as a type.
# THROW_ON_LOAD_REASON: the reason expected for the library that throws while loaded, where
# it differs (the sanitizer build).
set -euo pipefail
solvent=$1 misbehaving=$2 wrong_abi=$3 work=$4
rm -rf "$work"
mkdir -p "$work/plugins"
dir=$(cd "$work/plugins" && pwd -P)
cp "$misbehaving"/libsolvent-*.so "$dir/"
head -c 4096 "$wrong_abi" > "$dir/libsolvent-cut.so"
printf 'This is a text file that happens to carry the name of a Solvent plugin library.\n' \
  > "$dir/libsolvent-text.so"
mkfifo "$dir/libsolvent-fifo.so"
mkdir "$dir/libsolvent-folder.so"
ln -s /dev/null "$dir/libsolvent-device.so"
ln -s libsolvent-loop-b.so "$dir/libsolvent-loop-a.so"
ln -s libsolvent-loop-a.so "$dir/libsolvent-loop-b.so"

fail() { printf 'hostile_plugin_path: %s\n' "$*" >&2; exit 1; }
expect_line() {  # expect_line OUTPUT LINE: OUTPUT has LINE, whole
  grep -qxF -- "$2" <<<"$1" || fail "missing line: $2"
}

start=$(date +%s)
listing=$("$solvent" plugins --path "$dir")
printf '%s\n' "$listing"
expect_line "$listing" "  $dir/libsolvent-abort-on-load.so: crashed on load: SIGABRT"
expect_line "$listing" "  $dir/libsolvent-segfault-on-load.so: crashed on load: SIGSEGV"
expect_line "$listing" "  $dir/libsolvent-hang-on-load.so: did not load within 10 s"
expect_line "$listing" "  $dir/libsolvent-throw-on-load.so: ${THROW_ON_LOAD_REASON:-threw an exception that is not a std::exception while it was loaded}"
expect_line "$listing" "  $dir/libsolvent-exit-on-load.so: exited on load (exit status 3)"
expect_line "$listing" "  $dir/libsolvent-throwing-schema.so: its schema() threw an exception that is not a std::exception"
expect_line "$listing" "  $dir/libsolvent-unknown-device.so: descriptor of 'unknown-device' names device 'gpu'; a plugin runs on \"cpu\", \"cuda\" or \"any\""
grep -qF "  $dir/libsolvent-cut.so: truncated (4096 bytes; its ELF header describes " <<<"$listing" ||
  fail "the truncated library is not listed as truncated"
expect_line "$listing" "  $dir/libsolvent-text.so: not a shared library (no ELF header)"
expect_line "$listing" "  $dir/libsolvent-fifo.so: a FIFO, not a regular file"
expect_line "$listing" "  $dir/libsolvent-folder.so: a directory, not a regular file"
expect_line "$listing" "  $dir/libsolvent-device.so: a character device, not a regular file"
expect_line "$listing" "  $dir/libsolvent-loop-a.so: cannot be read: Too many levels of symbolic links"
expect_line "$listing" "  $dir/libsolvent-loop-b.so: cannot be read: Too many levels of symbolic links"
# The one that misbehaves only once constructed is a plugin like any other, and the scan
# went on past every broken library to the default folder.
grep -qE "^linear_solver +throwing-constructor +1\.0\.0 +cpu +$dir/libsolvent-throwing-constructor\.so$" \
  <<<"$listing" || fail "throwing-constructor is not listed as a plugin"
grep -qE "^model +angiogenesis-1d " <<<"$listing" || fail "the default folder was not read"
elapsed=$(( $(date +%s) - start ))
[ "$elapsed" -lt 15 ] || fail "listing took $elapsed s"

# From here on without the library that hangs, which would cost 10 s per command.
rm "$dir/libsolvent-hang-on-load.so"
cat > "$work/good.toml" <<'TOML'
[plugins]
path = ["plugins"]
[model]
type = "angiogenesis-1d"
M = 25
[integrator]
type = "imex-trapezoid"
steps = 1
[linear_solver]
type = "gepp-cpu"
TOML
out=$("$solvent" validate "$work/good.toml" 2>&1) || fail "validate of a good config failed: $out"
printf '%s\n' "$out"
grep -q 'warning' <<<"$out" && fail "a [plugins] path inside the config's folder was warned about"

# validate_with TYPE NAME: validates the good config with another linear_solver type,
# leaving the output in $out and the exit code in $rc.
validate_with() {
  sed "s|\"gepp-cpu\"|\"$1\"|" "$work/good.toml" > "$work/$2.toml"
  set +e
  out=$("$solvent" validate "$work/$2.toml" 2>&1)
  rc=$?
  set -e
  printf '%s\n' "$out"
}

validate_with plugins/libsolvent-throwing-constructor.so by-path
[ "$rc" -eq 2 ] || fail "a path as type: exit code $rc, expected 2"
expect_line "$out" "error: $work/by-path.toml:10:8: [linear_solver]: type 'plugins/libsolvent-throwing-constructor.so' is a path; plugin types are names; add the directory to [plugins] path"

# Named, the plugin whose constructor throws is loaded and fails as a plugin error (exit 3)
# naming the plugin and its library, not a crash.
validate_with throwing-constructor throwing
[ "$rc" -eq 3 ] || fail "a throwing constructor: exit code $rc, expected 3"
expect_line "$out" "error: linear_solver 'throwing-constructor' ($dir/libsolvent-throwing-constructor.so) threw an exception that is not a std::exception as it was made"
# A truncated copy of a plugin the config asks for, first on the path: the good copy of the
# default folder runs, and the run says which file it used and why the copy was skipped.
plugin_dir=$(cd "$(dirname "$solvent")/../lib/solvent" && pwd -P)
head -c 4096 "$plugin_dir/libsolvent-gepp-cpu.so" > "$dir/libsolvent-gepp-cpu.so"
out=$("$solvent" validate "$work/good.toml" 2>&1) || fail "validate beside a broken copy failed: $out"
printf '%s\n' "$out"
grep -qF "[warning] linear_solver plugin 'gepp-cpu': using $plugin_dir/libsolvent-gepp-cpu.so; $dir/libsolvent-gepp-cpu.so: truncated (4096 bytes;" <<<"$out" ||
  fail "the truncated copy of gepp-cpu was skipped without a word"
echo "hostile_plugin_path: all checks passed"
