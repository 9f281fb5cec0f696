// The testkit library holds doctest assertions (its conformance checks); this program only
// uses its plugin factory, but must still link doctest's runtime.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
