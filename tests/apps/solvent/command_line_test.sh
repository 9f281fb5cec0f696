#!/usr/bin/env bash
# The `solvent` command line: each subcommand's --help, and mistakes in the arguments as
# configuration errors (exit code 2) whose one-line message names the mistake. Nothing
# here loads a plugin.
#   command_line_test.sh SOLVENT CONFIG   (CONFIG: any TOML file that parses)
set -u
solvent=$1 config=$2
failures=0

# expect EXIT_CODE TEXT ARGS...: `solvent ARGS...` exits with EXIT_CODE and prints TEXT.
expect() {
  local rc=$1 text=$2
  shift 2
  local output
  output=$("$solvent" "$@" 2>&1)
  local got=$?
  if [ "$got" -ne "$rc" ] || [[ "$output" != *"$text"* ]]; then
    printf 'FAIL: solvent %s\n  expected exit %s and: %s\n  got exit %s and:\n%s\n' \
      "$*" "$rc" "$text" "$got" "$output"
    failures=$((failures + 1))
  fi
}

expect 2 "error: solvent run: unknown option '--frob' (try solvent run --help)" run "$config" --frob
expect 2 "error: solvent validate: unknown option '--frob=1'" validate "$config" --frob=1
expect 2 "error: solvent plugins: unknown option '--frob'" plugins --frob
expect 2 "error: solvent: unknown option '--frob' (try solvent --help)" --frob
expect 2 "error: solvent: unknown command 'frobnicate' (try solvent --help)" frobnicate
expect 2 "error: solvent: unknown command 'rn'; did you mean 'run'? (try solvent --help)" rn
expect 2 "error: solvent: unknown command 'valdate'; did you mean 'validate'? (try solvent --help)" valdate
folder=$(dirname "$config")
expect 2 "error: $folder: is a folder, not a configuration file (a results folder's configuration is $folder/config.toml; to continue its run: solvent run --resume $folder)" run "$folder"
expect 2 "error: solvent validate: unexpected argument 'extra'" validate "$config" extra
expect 2 "error: solvent describe: unexpected argument 'two'" describe one two
expect 2 "error: solvent describe: NAME is required" describe
expect 2 "error: solvent validate: FILE is required" validate
expect 2 "error: solvent run: which configuration file? (solvent run FILE)" run --no-progress
expect 2 "error: solvent run: --output: 1 required DIR missing" run "$config" --output
expect 2 "error: solvent run: overwrite was given a disallowed flag override" run "$config" --overwrite=false
expect 2 "1 configuration error; nothing was run" run "$config" --frob

# Both spellings of --set reach the configuration (which reports the malformed values),
# and FILE after a --set is still FILE.
expect 2 "--set oops: expected section.key=value" validate "$config" --set oops
expect 2 "--set run.=1: 'run.' is not a section.key path" validate "$config" --set=run.=1
expect 2 "--set oops: expected section.key=value" validate --set oops "$config"
expect 2 "--set oops: expected section.key=value" run --set oops "$config" --no-progress

for sub in run validate plugins describe; do
  expect 0 "Usage: solvent $sub" "$sub" --help
done
expect 0 "--set section.key=value" run --help
expect 0 "--resume DIR" run -h
expect 0 "--path DIR" plugins --help
expect 0 "solvent describe NAME" --help
expect 0 "exit codes: 0 success" help
expect 0 "(plugin ABI " --version
expect 0 "; licence BSD-3-Clause)" --version

# No argument: the usage, on stderr only.
if [ -n "$("$solvent" 2>/dev/null)" ] || [[ "$("$solvent" 2>&1)" != *"usage:"* ]]; then
  echo "FAIL: solvent with no argument prints its usage on stderr only"
  failures=$((failures + 1))
fi
"$solvent" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: solvent with no argument exits 2"; failures=$((failures + 1)); }

[ "$failures" -eq 0 ] && echo "command line: all checks passed"
exit $((failures > 0))
