// explicit-stencil3d on the CPU through the plugin interface: the stability refusal and the
// guards that stop a forced run (exit 6), a bit-for-bit repeatable run, restart from a
// checkpoint, the invariants of the network, the fields' ranges and the files a run writes.
#include <solvent_test/angiogenesis_3d_runs.hpp>

#include <solvent/io/checkpoint.hpp>
#include <solvent_stencil3d/network_counters.hpp>
#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent_family_angiogenesis_3d/grid.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <vector>

using namespace solvent::test;

TEST_CASE("a dt above the explicit limit is refused with the limit; forced, the guards stop it") {
  const auto dir = fresh_dir("stability");
  try {
    run(fast_model(), integrator(1, {{"dt", 0.5}}), dir);
    FAIL("dt = 0.5 was accepted");
  } catch (const solvent::ConfigError& e) {
    const std::string msg = e.what();
    CHECK(msg.rfind("integrator.dt = 0.5 exceeds the explicit stability limit 0.00", 0) == 0);
    CHECK(msg.find("use dt <= 0.00") != std::string::npos);
    CHECK(msg.find("or set integrator.force_dt = true") != std::string::npos);
  }
  // Forced, P0 < 0 and P > 1 at every tip from the first step on: the probability guard
  // stops the run there, naming the step and the criterion.
  try {
    run(fast_model(), integrator(5, {{"dt", 0.5}, {"force_dt", true}}), dir);
    FAIL("the forced unstable run ended normally");
  } catch (const solvent::DivergenceError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(e.exit_code() == 6);
    CHECK(msg.find("at step 1 (t = 0.5)") != std::string::npos);
    CHECK(msg.find("criterion: 0 <= P0..P6 <= 1 at every tip") != std::string::npos);
    CHECK(msg.find("integrator.max_bad_probability_share = 0.2") != std::string::npos);
  }
}

TEST_CASE("a forced dt that makes the vessel uptake overshoot stops naming step, field, node") {
  // k eta = 3 drives c on the vessel nodes below 0; the probability guard is switched off
  // so that the field check is what stops the run, at the first state written.
  const auto dir = fresh_dir("uptake");
  try {
    run(fast_model(),
        integrator(2, {{"dt", 30.0}, {"force_dt", true}, {"max_bad_probability_share", 1.0}}), dir);
    FAIL("the forced run with k eta = 3 ended normally");
  } catch (const solvent::DivergenceError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.rfind("explicit-stencil3d: at step 2 (t = 60) c = -", 0) == 0);
    CHECK(msg.find("at node (") != std::string::npos);
    CHECK(msg.find("is outside its range [0, 1]") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(dir / "checkpoint.bin"));
}

TEST_CASE("the fields stay in range, n is the cell occupancy, the probabilities are counted") {
  const auto dir = fresh_dir("ranges");
  const auto out = run(fast_model(), integrator(300), dir, 3);
  const auto s = load_checkpoint(dir, fast_model(), 0.004, 3);
  const double f_max = std::max(s.p.f_amplitude, s.p.beta / s.p.gamma);
  for (std::size_t m = 0; m < s.c.size(); ++m) {
    REQUIRE(std::isfinite(s.c[m]));
    REQUIRE(std::isfinite(s.f[m]));
    CHECK(s.c[m] >= 0.0);
    CHECK(s.c[m] <= 1.0);
    CHECK(s.f[m] >= 0.0);
    CHECK(s.f[m] <= f_max);
  }
  // 7 probabilities per tip active when a step begins, and the share within the default.
  double decided = 0;
  for (std::size_t r = 0; r + 1 < out.observer.rows.size(); ++r)
    decided += out.observer.rows[r][0].value;  // "tips": active after step r
  CHECK(s.counters.probabilities == 7 * static_cast<std::int64_t>(decided));
  CHECK(out.observer.last("bad_probabilities") == s.counters.bad_probabilities);
  CHECK(out.observer.last("bad_probability_share") <= 0.2);
  MESSAGE("21^3, 300 steps: " << s.counters.bad_probabilities << " of " << s.counters.probabilities
                              << " probabilities outside [0, 1]");

  // The .vti's first array, n, is 1 exactly on the vessel nodes.
  const auto vti = read_file(dir / "fields_00000300.vti");
  const auto at = vti.find("encoding=\"raw\">\n   _") + 20 + 8;
  std::vector<double> n(s.owner.size());
  std::memcpy(n.data(), vti.data() + at, n.size() * sizeof(double));
  for (std::size_t m = 0; m < n.size(); ++m) CHECK(n[m] == (s.owner[m] >= 0 ? 1.0 : 0.0));
}

TEST_CASE("the same seed grows the same network bit for bit; another seed another one") {
  const auto a = fresh_dir("repeat-a"), b = fresh_dir("repeat-b"), c = fresh_dir("repeat-c");
  run(fast_model(), integrator(150), a, 11);
  run(fast_model(), integrator(150, {{"threads", std::int64_t(1)}}), b, 11);
  run(fast_model(), integrator(150), c, 12);
  const auto ca = read_file(a / "checkpoint.bin");
  CHECK(ca == read_file(b / "checkpoint.bin"));  // and independent of the thread count
  CHECK(ca != read_file(c / "checkpoint.bin"));
  CHECK(read_file(a / "network_00000150.vtp") == read_file(b / "network_00000150.vtp"));
}

TEST_CASE("a run resumed from its checkpoint ends bit for bit as the uninterrupted run") {
  const auto whole = fresh_dir("whole"), part = fresh_dir("part");
  const auto full =
      run(fast_model(), integrator(160, {{"checkpoint_every", std::int64_t(60)}}), whole, 5);
  run(fast_model(), integrator(60), part, 5);
  const auto resumed = run(fast_model(), integrator(160), part, 5, part);
  CHECK(resumed.result.steps == 160);
  CHECK(resumed.observer.steps.front() == 60);
  CHECK(read_file(whole / "checkpoint.bin") == read_file(part / "checkpoint.bin"));
  CHECK(read_file(whole / "fields_00000160.vti") == read_file(part / "fields_00000160.vti"));
  for (const char* name : {"tips", "branches", "anastomoses", "vessel_length", "furthest_x"})
    CHECK(full.observer.last(name) == resumed.observer.last(name));

  // A checkpoint of another seed is refused.
  CHECK_THROWS_WITH_AS(run(fast_model(), integrator(160), fresh_dir("other"), 6, part),
                       ((part / "checkpoint.bin").string() +
                        ": the checkpoint was written with seed = 5, this run has seed = 6; "
                        "rerun with --overwrite")
                           .c_str(),
                       solvent::InputError);
}

TEST_CASE("a damaged checkpoint is refused before its sizes are allocated or its nodes used") {
  const auto dir = fresh_dir("damaged");
  run(fast_model(), integrator(20), dir, 5);
  const auto file = dir / "checkpoint.bin";
  const std::string good = read_file(file);
  auto model = solvent::testkit::make_model("angiogenesis-3d", fast_model());
  const auto& p = *solvent::family<solvent::angiogenesis_3d::ParametersFamily>(*model);
  const auto grid = solvent::stencil3d::whole_grid(solvent::angiogenesis_3d::grid_of(p));
  auto restore = [&](const std::string& bytes) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    solvent::stencil3d::restore_checkpoint(dir, p, 0.004, 5, grid, grid, solvent::single_rank());
  };
  REQUIRE_NOTHROW(restore(good));
  auto refused = [&](const std::string& bytes, const std::string& what) {
    CHECK_THROWS_WITH_AS(restore(bytes), (file.string() + ": " + what).c_str(),
                         solvent::InputError);
  };
  // A bit flipped anywhere, or the file cut short: the SDK's checksum and size.
  std::string flipped = good;
  flipped[good.size() / 2] ^= 4;
  refused(flipped, "a damaged checkpoint: its checksum does not match its contents; rerun with "
                   "--overwrite");
  refused(good.substr(0, good.size() - 100),
          "a damaged checkpoint: " + std::to_string(good.size() - 100) +
              " bytes where its header says " + std::to_string(good.size()) +
              "; rerun with --overwrite");
  // Wrong values under a valid checksum (a file written by another program): the stencil's
  // own checks. The scalars: version, seed (2), window (6), segment capacity, the parameter
  // block, then the counters (tips first) and the tips' nodes.
  const std::string writer = "explicit-stencil3d (hybrid)";
  std::ofstream(file, std::ios::binary | std::ios::trunc) << good;
  const auto ck =
      solvent::read_checkpoint(file, {writer, 0.004, 9261, 3, solvent::any_count});
  const std::size_t counters = 10 + sizeof(solvent::angiogenesis_3d::Parameters) / 8;
  const auto count = [&](std::size_t at) { return std::to_string(std::int64_t(ck.scalars[at])); };
  auto with = [&](std::size_t at, double value) {
    auto changed = ck;
    changed.scalars[at] = value;
    return solvent::checkpoint_bytes(changed, writer, 0.004);
  };
  refused(with(0, 3), "an explicit-stencil3d checkpoint of layout version 3, this build reads "
                      "version 4; rerun with --overwrite");
  refused(with(9, double(std::int64_t(1) << 40)),
          "a damaged checkpoint: it declares 1099511627776 vessel segments, outside 1 to "
          "1073741824");
  refused(with(counters, 0.5),
          "a damaged checkpoint: its tip count is 0.5, not an integer of its range");
  refused(with(counters, double(1 << 20)),
          "a damaged checkpoint: its counts of 1048576 tips (" + count(counters + 1) +
              " active), " + count(counters + 4) + " segments and " + count(counters + 5) +
              " vessel nodes do not fit its 100 tip slots");
  refused(with(counters + 10, -5),
          "a damaged checkpoint: tip 0 names node -5, outside the grid's 9261 nodes");
  auto cut = ck;
  cut.scalars.pop_back();
  const std::size_t network = ck.scalars.size() - counters - 10;
  refused(solvent::checkpoint_bytes(cut, writer, 0.004),
          "a damaged checkpoint: " + std::to_string(network - 1) + " values of the network where " +
              "its " + count(counters) + " tips, " + count(counters + 4) + " stored segments and " +
              count(counters + 5) + " stored vessel nodes need " + std::to_string(network));
  auto owned = ck;
  owned.vectors.back()[7] = 1e300;
  refused(solvent::checkpoint_bytes(owned, writer, 0.004),
          "a damaged checkpoint: a node is owned by tip 1e+300 of 100");
}

TEST_CASE("the network: tips branch and fuse, segments join neighbours, counters add up") {
  const auto dir = fresh_dir("network");
  const auto out =
      run(fast_model(), integrator(300, {{"fields_every", std::int64_t(100)}}), dir, 3);
  const auto s = load_checkpoint(dir, fast_model(), 0.004, 3);
  const auto& n = s.counters;
  INFO("tips " << n.tips << " active " << n.active << " branches " << n.branches << " anastomoses "
               << n.anastomoses << " segments " << n.segments);
  CHECK(n.branches > 0);
  CHECK(n.anastomoses > 0);
  CHECK(n.tips == 9 + n.branches);
  CHECK(n.active == n.tips - n.anastomoses);
  CHECK(n.tips <= 100);
  CHECK(n.overflow == 0);

  const solvent::angiogenesis_3d::Grid g{21, 21, 21};
  std::set<std::int32_t> on_network(s.vessel.begin(), s.vessel.begin() + n.vessel_nodes);
  CHECK(on_network.size() == static_cast<std::size_t>(n.vessel_nodes));
  std::int64_t owned = 0;
  for (std::size_t m = 0; m < s.owner.size(); ++m)
    if (s.owner[m] >= 0) {
      ++owned;
      CHECK(on_network.count(static_cast<std::int32_t>(m)) == 1);
    }
  CHECK(owned == n.vessel_nodes);
  for (std::int32_t e = 0; e < n.segments; ++e) {
    std::int32_t i0, j0, k0, i1, j1, k1;
    g.coordinates(s.segments[2 * e], i0, j0, k0);
    g.coordinates(s.segments[2 * e + 1], i1, j1, k1);
    CHECK(std::abs(i0 - i1) + std::abs(j0 - j1) + std::abs(k0 - k1) == 1);
    CHECK(on_network.count(s.segments[2 * e + 1]) == 1);
  }
  for (std::int32_t t = 0; t < n.tips; ++t) CHECK(s.owner[s.node[t]] >= 0);

  // The observables of the last step are the checkpoint's counters.
  CHECK(out.observer.last("tips") == n.active);
  CHECK(out.observer.last("branches") == n.branches);
  CHECK(out.observer.last("anastomoses") == n.anastomoses);
  CHECK(out.observer.last("vessel_length") == doctest::Approx(n.segments * 0.05));
  CHECK(out.observer.last("furthest_x") == doctest::Approx(n.furthest_i * 0.05));
  CHECK(out.observer.steps.size() == 301);

  // f and c changed on the network only, and in the direction of uptake.
  const auto init = solvent::stencil3d::initial_state(s.p, s.dt, s.seed, 1);
  for (std::size_t m = 0; m < s.c.size(); ++m) {
    if (s.owner[m] >= 0) {
      CHECK(s.c[m] < init.c[m]);
    } else {
      CHECK(s.c[m] == init.c[m]);
      CHECK(s.f[m] == init.f[m]);
    }
  }
}

TEST_CASE("a run writes VTK image data, VTK polydata and a PNG picture") {
  const auto dir = fresh_dir("files");
  run(fast_model(), integrator(20, {{"fields_every", std::int64_t(10)}, {"png", true}}), dir);
  for (const char* name : {"fields_00000010.vti", "fields_00000020.vti", "network_00000010.vtp",
                           "network_00000020.vtp", "network.png", "checkpoint.bin"})
    CHECK_MESSAGE(fs::exists(dir / name), name);
  const auto vti = read_file(dir / "fields_00000020.vti");
  CHECK(vti.find("<VTKFile type=\"ImageData\"") != std::string::npos);
  CHECK(vti.find("WholeExtent=\"0 20 0 20 0 20\"") != std::string::npos);
  // Four arrays of 21^3 values, each after an 8-byte size.
  CHECK(vti.size() > 4 * 8 + 21 * 21 * 21 * (3 * 8 + 4));
  std::uint64_t first_block = 0;
  std::memcpy(&first_block, vti.data() + vti.find("encoding=\"raw\">\n   _") + 20, 8);
  CHECK(first_block == 21 * 21 * 21 * 8);
  const auto vtp = read_file(dir / "network_00000020.vtp");
  CHECK(vtp.find("<VTKFile type=\"PolyData\"") != std::string::npos);
  const auto png = read_file(dir / "network.png");
  CHECK(png.substr(1, 3) == "PNG");
  CHECK(png.substr(png.size() - 8, 4) == "IEND");
  // Read back by zlib itself: every chunk's CRC holds, and the image data inflates to one
  // filter byte and w palette indices per row, from a small fraction of those bytes.
  auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  std::uint32_t w = 0, h = 0;
  std::string idat;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t n = be32(at);
    const auto* body = reinterpret_cast<const Bytef*>(png.data() + at + 4);
    CHECK(be32(at + 8 + n) == crc32(crc32(0L, Z_NULL, 0), body, n + 4));
    const std::string type = png.substr(at + 4, 4);
    if (type == "IHDR") {
      w = be32(at + 8);
      h = be32(at + 12);
    }
    if (type == "IDAT") idat += png.substr(at + 8, n);
    at += 12 + n;
  }
  REQUIRE(w * h > 0);
  std::vector<Bytef> rows(std::size_t(w + 1) * h + 1);
  uLongf size = rows.size();
  REQUIRE(uncompress(rows.data(), &size, reinterpret_cast<const Bytef*>(idat.data()),
                     idat.size()) == Z_OK);
  CHECK(size == std::size_t(w + 1) * h);
  CHECK(idat.size() * 4 < size);
}

TEST_CASE("the run ends once a tip reaches stop_x") {
  auto model = fast_model();
  model["stop_x"] = 0.3;
  const auto out = run(model, integrator(2000), fresh_dir("stop"));
  CHECK(out.result.steps < 2000);
  CHECK(out.observer.last("furthest_x") >= 0.3 - 1e-12);
  CHECK(out.observer.rows[out.observer.rows.size() - 2][5].value < 0.3 - 1e-12);
}

TEST_CASE("with anastomosis off no tip fuses and every tip keeps moving") {
  auto model = fast_model();
  model["anastomosis"] = false;
  const auto dir = fresh_dir("no-anastomosis");
  const auto out = run(model, integrator(150), dir, 3);
  CHECK(out.observer.last("anastomoses") == 0);
  CHECK(out.observer.last("tips") == out.observer.last("sprouts"));
  CHECK(out.observer.last("branches") > 0);
}
