#!/usr/bin/env bash
# expect_failure.sh EXIT_CODE EXPECTED_TEXT_FILE COMMAND...
# Passes when COMMAND exits with EXIT_CODE and its output (stdout and stderr) contains the
# text of EXPECTED_TEXT_FILE verbatim, line breaks included.
set -u
expected_rc=$1
expected_text=$(cat "$2")
shift 2
output=$("$@" 2>&1)
rc=$?
printf '%s\n' "$output"
if [ "$rc" -ne "$expected_rc" ]; then
  echo "expect_failure: exit code $rc, expected $expected_rc" >&2
  exit 1
fi
if [[ "$output" != *"$expected_text"* ]]; then
  printf 'expect_failure: output lacks the expected text:\n%s\n' "$expected_text" >&2
  exit 1
fi
