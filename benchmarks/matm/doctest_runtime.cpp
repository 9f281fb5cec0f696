// The testkit's loaders live in a doctest-based library; a program without doctest's
// main still needs doctest's implementation once.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
