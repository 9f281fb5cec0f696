// explicit-stencil3d with device = "cuda" against device = "cpu": the same seed must give
// the identical state — fields, tips, vessel network and probability counters, byte for
// byte — and the identical observables; in the continuous mode the same n, f and c. Reports itself skipped (exit 77) where no CUDA device can
// be used.
#define DOCTEST_CONFIG_IMPLEMENT
#include <solvent_test/angiogenesis_3d_runs.hpp>

#include <solvent_stencil3d/stencil_engine.hpp>

#include <solvent/errors.hpp>

#include <iostream>

using namespace solvent::test;

namespace {

void check_identical(const Settings& model, std::int64_t steps, const std::string& name,
                     const Settings& extra = {}) {
  const auto cpu = fresh_dir(name + "-cpu"), gpu = fresh_dir(name + "-cuda");
  Settings on_gpu = extra;
  on_gpu["device"] = std::string("cuda");
  const auto a = run(model, integrator(steps, extra), cpu, 21);
  const auto b = run(model, integrator(steps, on_gpu), gpu, 21);
  CHECK(a.result.steps == b.result.steps);
  REQUIRE(a.observer.rows.size() == b.observer.rows.size());
  for (std::size_t r = 0; r < a.observer.rows.size(); ++r)
    for (std::size_t o = 0; o < a.observer.rows[r].size(); ++o)
      REQUIRE(a.observer.rows[r][o].value == b.observer.rows[r][o].value);
  CHECK(read_file(cpu / "checkpoint.bin") == read_file(gpu / "checkpoint.bin"));
  MESSAGE(name << ": " << a.observer.last("sprouts") << " sprouts, "
               << a.observer.last("anastomoses") << " anastomoses, vessel length "
               << a.observer.last("vessel_length") << " — identical on CPU and CUDA");
}

}  // namespace

TEST_CASE("CUDA grows the CPU's network bit for bit (21^3)") {
  check_identical(fast_model(), 300, "cuda-21");
}

TEST_CASE("and on a grid of unequal sides") {
  auto model = fast_model();
  model["nx"] = std::int64_t(37);
  model["nz"] = std::int64_t(45);
  // The finer x spacing lowers the step limit below the default dt.
  check_identical(model, 200, "cuda-37x21x45", {{"dt", 0.0015}});
}

TEST_CASE("with hundreds of tips (several warps in the tip block)") {
  auto model = fast_model(41);
  model["branching.max_tips"] = std::int64_t(1024);
  model["branching.probabilities"] = std::vector<double>{1, 1, 1, 1, 1};
  const auto dir = fresh_dir("cuda-many-tips-cpu");
  const auto cpu = run(model, integrator(250, {{"dt", 0.0015}}), dir, 21);
  CHECK(cpu.observer.last("sprouts") > 300);
  const auto gpu_dir = fresh_dir("cuda-many-tips-cuda");
  const auto gpu =
      run(model, integrator(250, {{"dt", 0.0015}, {"device", std::string("cuda")}}), gpu_dir, 21);
  CHECK(read_file(dir / "checkpoint.bin") == read_file(gpu_dir / "checkpoint.bin"));
  MESSAGE("41^3: " << cpu.observer.last("sprouts") << " sprouts, "
                   << cpu.observer.last("anastomoses") << " anastomoses — identical");
}

TEST_CASE("the continuous mode: n, f and c at every node, bit for bit, every block shape") {
  // 37 x 21 x 45: no axis a multiple of any block's, so every shape has partial blocks.
  auto model = continuous_model(21);
  model["nx"] = std::int64_t(37);
  model["nz"] = std::int64_t(45);
  const auto cpu = fresh_dir("cuda-continuous-cpu");
  run(model, integrator(200, {{"dt", 0.001}}), cpu, 21);
  for (const char* shape : solvent::stencil3d::field_block_names) {
    INFO("cuda_block = " << shape);
    const auto gpu = fresh_dir(std::string("cuda-continuous-") + shape);
    run(model,
        integrator(200, {{"dt", 0.001},
                         {"device", std::string("cuda")},
                         {"cuda_block", std::string(shape)}}),
        gpu, 21);
    CHECK(read_file(cpu / "checkpoint.bin") == read_file(gpu / "checkpoint.bin"));
    CHECK(read_file(cpu / "fields_00000200.vti") == read_file(gpu / "fields_00000200.vti"));
  }
}

int main(int argc, char** argv) {
#ifdef SOLVENT_STENCIL3D_HAVE_CUDA
  try {
    solvent::stencil3d::make_cuda_engine();
  } catch (const solvent::DeviceUnavailable& e) {
    std::cout << "skipped: " << e.what() << '\n';
    return 77;
  }
#else
  std::cout << "skipped: explicit-stencil3d was built without CUDA\n";
  return 77;
#endif
  doctest::Context context(argc, argv);
  return context.run();
}
