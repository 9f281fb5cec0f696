// Ranks that mpirun starts on one host share its cores. OpenMP reads OMP_NUM_THREADS once, as
// its library loads, and otherwise gives every rank one thread per allowed core: two unbound
// ranks of a 32-core host then ran 32 threads each, and their staged copies to and from two
// GPUs took 10 times as long (0.5 s against 0.05 s at 512^3) as with OMP_NUM_THREADS=16,
// also when the thread count was lowered later with omp_set_num_threads (the set-up and the
// copies were fast only where the count was in the environment from the start, or the
// threads waited passively). So the command, before anything else, sets the count for the
// ranks of its host and starts itself again, once; the run records the threads each rank had
// and says why (share_host_cores in the core, which also divides them where no launcher
// variable says how many ranks share the host, e.g. a program embedding Solvent).
#include "run/rank_checks.hpp"

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>

namespace solvent::cli {

void divide_cores_among_local_ranks(char** argv) {
  if (std::getenv("OMP_NUM_THREADS") != nullptr) return;
  // OpenMPI's name, then MPICH's (Hydra).
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (local == nullptr) local = std::getenv("MPI_LOCALNRANKS");
  const int ranks = local != nullptr ? std::atoi(local) : 1;
  if (ranks <= 1) return;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  const auto cores = static_cast<unsigned>(CPU_COUNT(&allowed));
  const unsigned threads = threads_for_shared_host(cores, std::thread::hardware_concurrency(),
                                                   static_cast<unsigned>(ranks));
  if (threads >= cores) return;
  if (::setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1) != 0 ||
      ::setenv("SOLVENT_THREADS_SHARED", std::to_string(ranks).c_str(), 1) != 0) {
    ::unsetenv("OMP_NUM_THREADS");
    return;
  }
  ::execv("/proc/self/exe", argv);
  // Where the command cannot start itself again, it goes on as it is, and the core divides
  // the threads inside the process (share_host_cores).
  ::unsetenv("OMP_NUM_THREADS");
  ::unsetenv("SOLVENT_THREADS_SHARED");
}

}  // namespace solvent::cli
