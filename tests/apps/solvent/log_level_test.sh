#!/usr/bin/env bash
# Log levels: --log-level, -v/-q and SOLVENT_LOG_LEVEL decide which messages reach stderr,
# the command line over the variable, and a level that does not exist is a configuration
# error (exit 2), never a silent "off". The probe is `solvent validate` on a configuration
# whose [plugins] path leaves its folder: one [warning] line, then configuration errors.
#   log_level_test.sh SOLVENT WORK_DIR
set -u
solvent=$1 work=$2
mkdir -p "$work"
config=$work/outside-path.toml
printf '[plugins]\npath = ["/nonexistent-solvent-plugins"]\n' >"$config"
failures=0

# shows YES|NO ARGS...: whether `solvent validate CONFIG ARGS...` prints the [warning] line
# (SOLVENT_LOG_LEVEL=x shows ... sets the variable for that call only).
shows() {
  local want=$1
  shift
  local output
  output=$("$solvent" validate "$config" "$@" 2>&1)
  local got=NO
  [[ "$output" == *"[warning] $config:2:"*"[plugins] path adds /nonexistent-solvent-plugins"* ]] && got=YES
  if [ "$got" != "$want" ] || [[ "$output" != *"configuration errors; nothing was run"* ]]; then
    printf 'FAIL: SOLVENT_LOG_LEVEL=%s solvent validate CONFIG %s: warning shown %s, expected %s\n%s\n' \
      "${SOLVENT_LOG_LEVEL-}" "$*" "$got" "$want" "$output"
    failures=$((failures + 1))
  fi
}

shows YES
shows YES --log-level warn
shows NO --log-level error
shows NO --log-level off
shows YES -q
shows YES -v
SOLVENT_LOG_LEVEL=error shows NO
SOLVENT_LOG_LEVEL=error shows YES --log-level warn
SOLVENT_LOG_LEVEL=error shows YES -v
SOLVENT_LOG_LEVEL=warn shows YES

# Before the subcommand as after it.
output=$("$solvent" --log-level error validate "$config" 2>&1)
[[ "$output" == *"[warning]"* ]] && { echo "FAIL: solvent --log-level error validate shows the warning"; failures=$((failures + 1)); }

# expect_error TEXT ARGS...: exit 2 and TEXT.
expect_error() {
  local text=$1
  shift
  local output
  output=$("$@" 2>&1)
  local got=$?
  if [ "$got" -ne 2 ] || [[ "$output" != *"$text"* ]]; then
    printf 'FAIL: %s\n  expected exit 2 and: %s\n  got exit %s and:\n%s\n' "$*" "$text" "$got" "$output"
    failures=$((failures + 1))
  fi
}
expect_error "error: SOLVENT_LOG_LEVEL=loud: not a log level (trace, debug, info, warn, error, off)" \
  env SOLVENT_LOG_LEVEL=loud "$solvent" validate "$config"
expect_error "error: solvent validate: --log-level: loud not in {trace,debug,info,warn,error,off}" \
  "$solvent" validate "$config" --log-level loud
expect_error "error: solvent validate: --verbose excludes --quiet" "$solvent" validate "$config" -q -v

[ "$failures" -eq 0 ] && echo "log levels: all checks passed"
exit $((failures > 0))
