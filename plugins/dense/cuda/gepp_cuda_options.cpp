#include "cuda/gepp_cuda_options.hpp"

#include "cuda/blocked_lu.hpp"

#include <solvent/errors.hpp>

#include <utility>
#include <vector>

namespace solvent::dense {

using solvent::ParamSpec;

solvent::Schema gepp_cuda_schema() {
  return {
      ParamSpec::choice(
          "mode", "best", {"best", "paper", "blocked"},
          "preset for the switches below. paper: De Luca et al.'s pipeline (atomic-max pivot "
          "search, "
          "row swap and elimination as three kernels per step, the augmented matrix sent to the "
          "device for every solve, a synchronisation after every kernel, no zero-block skipping, "
          "back substitution on the host). best: every improvement on. A switch written in the "
          "config overrides the preset; the defaults shown are those of best. blocked: "
          "right-looking blocked LU instead of the pipeline (panels of block_size columns "
          "factored by one kernel with De Luca 2025's atomic-max pivot search, cuBLAS DTRSM and "
          "DGEMM for the rest, DTRSV to substitute); of the switches only "
          "reuse_factorization applies"),
      ParamSpec::integer("block_size", 64,
                         "mode = \"blocked\": columns per panel, the inner dimension of the "
                         "trailing DGEMM update")
          .at_least(1)
          .at_most(kMaxBlockSize),
      ParamSpec::integer("panel_threads", 1024,
                         "mode = \"blocked\": threads of the one block that factors a panel "
                         "(a multiple of 32): more share a step's rows, fewer meet sooner at "
                         "its barriers and its atomic maximum; at least 64, for the two "
                         "moves per step of a 32-column sub-panel")
          .at_least(64)
          .at_most(1024),
      ParamSpec::boolean("pinned_upload", true,
                         "mode = \"blocked\": send the matrix through page-locked chunks filled "
                         "by four host threads while the copy engine sends the previous ones; "
                         "off: one copy from pageable memory, as the other modes and cusolver "
                         "send it"),
      ParamSpec::choice(
          "kernels", "fused", {"paper", "fused"},
          "paper: De Luca et al.'s kernels (one-block pivot search with a CAS atomic max, "
          "one-thread-per-column row swap, 16x16 elimination blocks over the whole "
          "augmented matrix). fused: one launch per step, the elimination over the "
          "active submatrix whose last block to finish then does the next step's "
          "pivot search (warp-shuffle reduction) and row swap; with "
          "skip_zero_blocks, runs of diagonal pivots are checked in one launch"),
      ParamSpec::choice("launch", "graph", {"sync", "stream", "graph"},
                        "sync: synchronise after every kernel (De Luca 2025). stream: queue all "
                        "kernels of a factorisation without waiting. graph: capture the "
                        "refactorisation once as a CUDA graph and replay it (used when the "
                        "factorisation is not reused; a reused one runs once, queued)"),
      ParamSpec::boolean("resident_matrix", true,
                         "keep the pristine matrix on the device and refactor from a device copy "
                         "instead of sending the augmented matrix from the host every solve"),
      ParamSpec::boolean("reuse_factorization", true,
                         "factor once in setup (L and U kept on the device) and only substitute "
                         "in each solve; off: refactor the augmented matrix in every solve, as "
                         "De Luca 2025 does every time step"),
      ParamSpec::boolean("skip_zero_blocks", true,
                         "restrict every elimination step to the rows and columns the matrix's "
                         "zero pattern allows (for the angiogenesis matrix: its zero blocks); "
                         "exact, pivots unchanged"),
      ParamSpec::choice("back_substitution", "device", {"host", "device"},
                        "host: copy the factors back and substitute on the CPU (De Luca 2025); "
                        "device: substitute in one thread block on the GPU"),
      // Narrowed to CUDA's int ordinal: unbounded, 2^32 would wrap to device 0. 255 is far
      // more GPUs than one host holds; an ordinal with no device is refused at setup.
      ParamSpec::integer("device", 0, "CUDA device ordinal").at_least(0).at_most(255),
  };
}

namespace {

// The value written in the config, else the preset's.
bool switch_on(const solvent::Parameters& p, const std::string& name, bool paper, bool best) {
  if (p.given(name)) return p.boolean(name);
  return p.string("mode") == "paper" ? paper : best;
}

std::string choice(const solvent::Parameters& p, const std::string& name, const char* paper,
                   const char* best) {
  if (p.given(name)) return p.string(name);
  return p.string("mode") == "paper" ? paper : best;
}

}  // namespace

EngineOptions read_engine_options(const solvent::Parameters& p) {
  EngineOptions o;
  o.blocked = p.string("mode") == "blocked";
  o.block_size = static_cast<int>(p.integer("block_size"));
  o.panel_threads = static_cast<int>(p.integer("panel_threads"));
  o.pinned_upload = p.boolean("pinned_upload");
  std::vector<std::string> problems;
  if (o.panel_threads % 32 != 0)
    problems.push_back("gepp-cuda: panel_threads = " + std::to_string(o.panel_threads) +
                       " is not a multiple of 32 (whole warps search the pivot)");
  for (const char* name : {"block_size", "panel_threads", "pinned_upload"}) {
    if (p.given(name) && !o.blocked)
      problems.push_back(std::string("gepp-cuda: ") + name + " applies to mode = \"blocked\" only");
  }
  if (o.blocked) {
    for (const char* name :
         {"kernels", "launch", "resident_matrix", "skip_zero_blocks", "back_substitution"}) {
      if (p.given(name))
        problems.push_back(std::string("gepp-cuda: ") + name +
                           " is a switch of the elimination pipeline (mode = \"paper\" or "
                           "\"best\"), not of mode = \"blocked\"");
    }
  }
  if (!problems.empty()) throw solvent::ConfigError(std::move(problems));
  o.kernels = choice(p, "kernels", "paper", "fused") == "paper" ? Kernels::Paper : Kernels::Fused;
  const std::string launch = choice(p, "launch", "sync", "graph");
  o.launch = launch == "sync"     ? Launch::Synchronized
             : launch == "stream" ? Launch::Stream
                                  : Launch::Graph;
  o.resident_matrix = switch_on(p, "resident_matrix", false, true);
  o.reuse_factorization = switch_on(p, "reuse_factorization", false, true);
  o.skip_zero_blocks = switch_on(p, "skip_zero_blocks", false, true);
  o.device_substitution = choice(p, "back_substitution", "host", "device") == "device";
  o.device = static_cast<int>(p.integer("device"));
  return o;
}

std::string describe(const EngineOptions& o) {
  auto on = [](bool b) { return b ? "on" : "off"; };
  if (o.blocked) {
    return "mode=blocked block_size=" + std::to_string(o.block_size) +
           " panel_threads=" + std::to_string(o.panel_threads) +
           " pinned_upload=" + on(o.pinned_upload) +
           " reuse_factorization=" + on(o.reuse_factorization);
  }
  const char* launch = o.launch == Launch::Synchronized ? "sync"
                       : o.launch == Launch::Stream     ? "stream"
                                                        : "graph";
  return std::string("kernels=") + (o.kernels == Kernels::Paper ? "paper" : "fused") +
         " launch=" + launch + " resident_matrix=" + on(o.resident_matrix) +
         " reuse_factorization=" + on(o.reuse_factorization) +
         " skip_zero_blocks=" + on(o.skip_zero_blocks) +
         " back_substitution=" + (o.device_substitution ? "device" : "host");
}

}  // namespace solvent::dense
