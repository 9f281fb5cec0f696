// The core's field writer (io/field_series.hpp, what every field file goes through) writing
// one field of N^3 float64 values, as a run writes its solution or a snapshot:
//
//   [mpirun -n P] field-write-benchmark DIR --n N [--repeat R] [--formats vtk,vtkhdf]
//                                        [--precisions float64,float32]
//
// Each rank holds its block of the grid (cut along axis 3) and writes through the writer's
// collective path (one rank: a .vti or a .vtkhdf; several: .pvti pieces or one .vtkhdf
// written together through MPI-IO). Each write is timed between barriers, from the call to
// the file's rename (its bytes forced to the disk first, as every output file is), best of
// R; the file is removed between writes. Rank 0 prints one Markdown row per format and
// precision: the seconds, the rate in MB/s of the float64 values (N^3 x 8 bytes, whatever
// the precision written), and every rank's peak resident memory beyond its block of the
// field (getrusage: what the writer held besides the values).
#include "io/field_series.hpp"
#include "ranks/communicator_world.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

int run(int argc, char** argv) {
  const solvent::Communicator& comm = solvent::world();
  if (argc < 2) throw solvent::Error("usage: field-write-benchmark DIR --n N [--repeat R] ...");
  const fs::path dir = argv[1];
  std::int64_t n = 448;
  int repeat = 3;
  std::vector<std::string> formats{"vtk", "vtkhdf"}, precisions{"float64", "float32"};
  for (int a = 2; a + 1 < argc; a += 2) {
    const std::string key = argv[a], value = argv[a + 1];
    if (key == "--n")
      n = std::stoll(value);
    else if (key == "--repeat")
      repeat = std::stoi(value);
    else if (key == "--formats")
      formats = split(value);
    else if (key == "--precisions")
      precisions = split(value);
    else
      throw solvent::Error("field-write-benchmark: unknown option " + key);
  }
  const int ranks = comm.size(), rank = comm.rank();
  if (n < ranks) throw solvent::Error("field-write-benchmark: fewer planes than ranks");

  // This rank's planes of axis 3 and the layer it shares with the next rank's block.
  solvent::GridBlockOutput grid;
  grid.nodes = {n, n, n};
  grid.spacing = {1.0 / double(n - 1), 1.0 / double(n - 1), 1.0 / double(n - 1)};
  grid.first = {0, 0, n * rank / ranks};
  grid.count = {n, n, n * (rank + 1) / ranks - grid.first[2]};
  const double before_field = peak_rss_mib();
  std::vector<double> values(grid.held_points());
  // Values of every bit pattern's kind, nothing a writer could store shorter.
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::sin(0.001 * double(i)) + 1e-3;
  const double with_field = peak_rss_mib();
  fs::create_directories(dir);

  if (rank == 0) {
    fmt::print("| ranks | N | format | precision | seconds (best of {}) | MB/s of float64 values "
               "| peak memory beyond the field, MiB (max over ranks) |\n",
               repeat);
    fmt::print("| --- | --- | --- | --- | --- | --- | --- |\n");
  }
  const double bytes = double(n) * double(n) * double(n) * sizeof(double);
  for (const auto& format : formats)
    for (const auto& precision : precisions) {
      solvent::Parameters output;
      output.set("format", format);
      output.set("precision", precision);
      double best = std::numeric_limits<double>::infinity();
      for (int r = 0; r < repeat; ++r) {
        solvent::FieldSeries series(dir, output, comm, false);
        comm.barrier();
        const auto start = std::chrono::steady_clock::now();
        series.write_grid("u", r, 0.0, grid, {"u"}, values);
        comm.barrier();
        std::vector<double> t{
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
        comm.max(t);
        best = std::min(best, t[0]);
        if (rank == 0)
          for (const auto& e : fs::directory_iterator(dir)) fs::remove_all(e.path());
        comm.barrier();
      }
      std::vector<double> extra{peak_rss_mib() - with_field};
      comm.max(extra);
      if (rank == 0)
        fmt::print("| {} | {} | {} | {} | {:.3f} | {:.0f} | {:.1f} |\n", ranks, n, format,
                   precision, best, bytes / best / 1e6, std::max(extra[0], 0.0));
    }
  if (rank == 0)
    fmt::print("\nthe field: {:.1f} MiB on rank 0 (its peak grew from {:.1f} to {:.1f} MiB)\n",
               double(values.size()) * sizeof(double) / 1048576.0, before_field, with_field);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int code = 0;
  try {
    code = run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    code = 1;
  }
  solvent::finish_world();
  return code;
}
