// doctest's main for tests that run under mpirun: MPI_Finalize before exit (else mpirun
// reports the ranks as having ended abnormally), after every test case has run.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "ranks/communicator_world.hpp"

int main(int argc, char** argv) {
  int code = 0;
  {
    doctest::Context context(argc, argv);
    code = context.run();
  }
  solvent::finish_world();
  return code;
}
