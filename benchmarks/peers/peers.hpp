#pragma once
// What the sections of the peer benchmark share: a contender (a Solvent or PETSc solver with
// its preconditioner, loaded by name exactly as `solvent run` loads it, so PETSc works on the
// operator Solvent hands it), its timed setup and solves, and the checks that contenders
// agree before their times are compared.
#include <solvent/plugin_factory.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace peers {

using solvent::plugins::Settings;

template <class T>
struct System {
  std::string name;  // as printed: "cabin-20"
  std::shared_ptr<const solvent::Operator> op;
  std::vector<T> b;
};

struct Contender {
  std::string label;   // as printed: "PETSc bcgs + jacobi"
  std::string solver;  // plugin name
  Settings settings;
  std::string preconditioner;  // plugin name; empty: none
  Settings preconditioner_settings = {};
};

template <class T>
struct Outcome {
  bool ran = false;
  std::string skipped;  // why it did not run: a plugin or package this build lacks
  solvent::SolveStats stats;
  double setup_s = 0;   // making the solver's operator and preconditioner, once
  double solve_s = 0;   // median over the timed solves
  double residual = 0;  // ||b - A x|| / ||b||, recomputed here from the operator
  std::vector<T> x;
  double ms_per_iteration() const;
};

// Sets the contender up once and solves from x = 0: a warm-up solve, then up to `repeats`
// timed ones while `budget_s` lasts (the warm-up is the only sample when one solve
// exceeds the budget).
template <class T>
Outcome<T> measure(const Contender& c, const System<T>& s, int repeats, double budget_s);

// ||a - b||_2 / ||b||_2.
template <class T>
double relative_difference(const std::vector<T>& a, const std::vector<T>& b);

double median(std::vector<double> v);

// A failed check is printed at once, in capitals, and makes the program exit 1 at the end;
// its timings are still printed, marked, so a reader sees what disagreed.
class Checks {
 public:
  bool expect(bool ok, const std::string& what);
  bool all_passed() const { return failures_ == 0; }

 private:
  int failures_ = 0;
};

struct Options {
  std::vector<std::int64_t> cabin{10, 20, 30};  // built-in cabin resolutions (Krylov section)
  std::string matrix_file = PEERS_MATRIX_FILE;  // the shipped Matrix Market example
  std::int64_t poisson_csr = 48;                // n of the real n^3 Poisson system in CSR
  std::vector<std::int64_t> grid{64};           // n of the MATM section's n^3 grids
  std::int64_t search_cabin = 40;               // cabin resolution of the preconditioner search
  int repeats = 3;
  double budget_s = 6.0;  // per contender and system
  // The search (minutes of MUMPS and 1000-iteration solves) is asked for by name.
  std::string sections = "krylov,multigrid";
};

void krylov_section(const Options& o, Checks& checks);
void multigrid_section(const Options& o, Checks& checks);
void search_section(const Options& o, Checks& checks);

// The Helmholtz model's defaults (100 Hz, impedance on the seats, source on the firewall) on
// the built-in cabin mesh.
System<solvent::complex> cabin(std::int64_t resolution);

}  // namespace peers
