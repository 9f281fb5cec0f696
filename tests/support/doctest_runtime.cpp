// The testkit (used here to load plugins and models by name) is built on doctest; a
// program that links it without running tests still needs doctest's implementation.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
