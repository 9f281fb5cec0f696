#include "cuda/device_matm.hpp"

#include <solvent/numerics/exact_sum.hpp>

#include <algorithm>
#include <cmath>

namespace solvent::matm::cuda {
namespace {

// Slots of the device array `sums`, one per inner product an iteration needs, so that
// one copy brings those of a step to the host; from d_w_w on in the order of the CPU
// backend's totals.
enum Slot { rr = 0, d_w_w, r2_w, a0_w_w, b_w_w, binv_a0, binv_a1, slots };

}  // namespace

double* DeviceMatm::allocate(std::size_t n) {
  owned_.emplace_back(n, "matm-cuda");
  bytes_ += n * sizeof(double);
  return owned_.back().data();
}

DeviceMatm::DeviceMatm(const SplitStencil& a, const SweepShape& shape, int fragments,
                       bool pipelined, bool peer_to_peer)
    : own_(a.own()),
      shape_(shape),
      self_adjoint_(a.self_adjoint()),
      n_(a.size()),
      ranks_(a.block() ? a.block()->comm : nullptr) {
  if (a.has_ghost_layer()) {
    const GridBlock& block = *a.block();
    links_.emplace(block, pipelined);
    exchanges_ = std::ranges::any_of(links_->halo().neighbours(), [](int r) { return r >= 0; });
    fragments_ = links_->fragments(fragments);
    if (pipelined && peer_to_peer) {
      // One launch a sweep: the wavefront crosses the ranks inside it.
      fragments_ = 1;
      open_peer_slots(block);
    }
  }
  try {
    const SplitView host = a.view();
    view_.n1 = host.n1;
    view_.n2 = host.n2;
    view_.n3 = host.n3;
    auto upload_array = [&](std::span<const double> v) {
      double* d = allocate(v.size());
      solvent::cuda::copy_to_device(d, v.data(), v.size() * sizeof(double), nullptr, "matm-cuda");
      return d;
    };
    view_.c0 = upload_array(a.c0());
    for (int d = 0; d < 3; ++d) {
      view_.lower[d] = upload_array(a.lower(d));
      view_.skew[d] = self_adjoint_ ? nullptr : upload_array(a.skew(d));
    }
    for (auto*& x : x_) x = allocate(n_);
    f_ = allocate(n_);
    r_ = allocate(n_);
    w_ = allocate(n_);
    y_ = allocate(n_);
    z0_ = allocate(n_);
    if (!self_adjoint_) z1_ = allocate(n_);
    index_t widest = 0;
    for (int q = 0; q < fragments_; ++q) {
      const SweepRange r = fragment(q, false);
      widest = std::max(widest, r.i1 - r.i0);
    }
    shape_ = resolved(shape_, widest);
    // The dot of a lower sweep takes one partial per tile of all its fragments; the
    // fragments' launches use the hand-off slots one after another.
    int tiles = 0;
    for (int q = 0; q < fragments_; ++q) {
      tiles += sweep_tiles(fragment(q, false), shape_);
      handoff_slots_ = std::max(handoff_slots_, sweep_handoff_slots(fragment(q, false), shape_));
    }
    handoff_ = allocate(std::max<std::size_t>(handoff_slots_, 1));
    arm_handoff(handoff_, handoff_slots_);
    partials_ =
        allocate(std::max<std::size_t>(std::size_t(4) * grid_blocks(own_), std::size_t(5) * tiles));
    sums_ = allocate(slots);
    ticket_counter_ = solvent::cuda::DeviceArray<int>(1, "matm-cuda");
    tickets_ = ticket_counter_.data();
    cudaEvent_t e0, e1;
    check(cudaEventCreate(&e0), "cudaEventCreate");
    start_ = e0;
    check(cudaEventCreate(&e1), "cudaEventCreate");
    stop_ = e1;
    if (links_ && !peers_) {
      // Host staging, for the sweeps and ghost layers that do not go GPU to GPU. Ghost nodes
      // on the grid's boundary are read (times a zero coupling) and never written: they
      // hold 0 because every device array starts zero-filled.
      const std::size_t size = links_->halo().send_buffer().size();
      staged_send_ = solvent::cuda::PinnedArray<double>(size, "matm-cuda (staging)");
      staged_receive_ = solvent::cuda::PinnedArray<double>(size, "matm-cuda (staging)");
    }
  } catch (...) {
    release();
    throw;
  }
}

DeviceMatm::~DeviceMatm() { release(); }

void DeviceMatm::release() {
  if (start_) cudaEventDestroy(static_cast<cudaEvent_t>(start_));
  if (stop_) cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
  start_ = stop_ = nullptr;
}

void DeviceMatm::upload(std::span<const double> f, std::span<const double> x) {
  // Inactive nodes hold u = 0. Over ranks the block's values go to the own nodes of the
  // view, through z0 (free between solves, and at least the block's size) and a kernel; the
  // ghost layer is filled before each product that reads it.
  current_ = 0;
  if (!links_) {
    // x goes up as it is and its inactive nodes are cleared on the device below: a host copy
    // of a 512^3 guess would cost more than its upload.
    solvent::cuda::copy_to_device(f_, f.data(), n_ * sizeof(double), nullptr, "matm-cuda");
    solvent::cuda::copy_to_device(x_[0], x.data(), n_ * sizeof(double), nullptr, "matm-cuda");
  } else {
    solvent::cuda::copy_to_device(z0_, f.data(), f.size() * sizeof(double), nullptr, "matm-cuda");
    block_to_view(view_, own_, z0_, f_, false);
    solvent::cuda::copy_to_device(z0_, x.data(), x.size() * sizeof(double), nullptr, "matm-cuda");
    block_to_view(view_, own_, z0_, x_[0], true);
  }
  // (f, f) over the active nodes on the device: one core took 0.46 s for it at 512^3.
  sum_of_squares(view_, own_, f_, partials_, sums_ + rr);
  check(cudaMemcpy(&f_norm2_, sums_ + rr, sizeof(double), cudaMemcpyDeviceToHost),
        "cudaMemcpy (sums)");
  check(cudaMemset(w_, 0, n_ * sizeof(double)), "cudaMemset (w)");
  if (!links_) update(view_, own_, x_[0], w_, 0.0);  // x - 0 w, and 0 on inactive nodes
  // A launch leaves every slot it used armed; armed again all the same, so that no value
  // of a launch that failed half-way reaches this solve.
  arm_handoff(handoff_, handoff_slots_);
  if (peers_) arm_handoff(reinterpret_cast<double*>(peers_->local()), peer_slots_);
  lower_set_ = 0;
  x_ghosts_ = false;
  w_ghosts_ = true;  // w = 0 everywhere
  check(cudaEventRecord(static_cast<cudaEvent_t>(start_)), "cudaEventRecord");
  clock_.reset();
  clock_.mark(PhaseClock::host);
}

void DeviceMatm::download(std::span<double> x) const {
  check(cudaEventRecord(static_cast<cudaEvent_t>(stop_)), "cudaEventRecord");
  check(cudaEventSynchronize(static_cast<cudaEvent_t>(stop_)), "cudaEventSynchronize");
  float ms = 0.0f;
  check(
      cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start_), static_cast<cudaEvent_t>(stop_)),
      "cudaEventElapsedTime");
  device_seconds_ = 1e-3 * ms;
  if (!links_) {
    solvent::cuda::copy_to_host(x.data(), x_[current_], n_ * sizeof(double), nullptr, "matm-cuda");
    return;
  }
  view_to_block(view_, own_, x_[current_], z0_);
  solvent::cuda::copy_to_host(x.data(), z0_, x.size() * sizeof(double), nullptr, "matm-cuda");
}

double DeviceMatm::rhs_norm2() { return add_over_ranks(&f_norm2_, 1)[0]; }

std::vector<double> DeviceMatm::add_over_ranks(const double* values, int count) const {
  // Each rank's sum as an exact sum of one term, added exactly over the ranks: the same
  // collective with the same count as the CPU backend's totals(), so ranks on a GPU and on
  // the CPU can share a run, and every rank holds the same bits.
  std::vector<ExactSum> sums(static_cast<std::size_t>(count));
  for (int q = 0; q < count; ++q) sums[static_cast<std::size_t>(q)].add(values[q]);
  if (ranks_) sum_over_ranks(sums, *ranks_);
  std::vector<double> out;
  for (const auto& e : sums) out.push_back(e.value());
  return out;
}

std::vector<double> DeviceMatm::fetch_sums(int first, int count) {
  clock_.mark(PhaseClock::host);
  std::vector<double> h(static_cast<std::size_t>(count));
  check(cudaMemcpy(h.data(), sums_ + first, count * sizeof(double), cudaMemcpyDeviceToHost),
        "cudaMemcpy (sums)");
  clock_.collect();
  return add_over_ranks(h.data(), count);
}

SweepRange DeviceMatm::fragment(int q, bool upper) const {
  if (!links_) return {own_, own_.lo[0], own_.hi[0], {}};
  if (peers_)
    return {own_, own_.lo[0], own_.hi[0], upper ? upper_peers_ : lower_peers_[lower_set_]};
  const auto [i0, i1] = links_->fragment(q, fragments_, !upper);
  return {own_, i0, i1, {}};
}

// The slots of the faces, one per node of the face; a lower sweep reads those of its lower
// faces (0, 2, 4) and stores into the upper neighbours'
// parts for the same faces, an upper sweep the other way round. The lower faces have two sets
// of slots, taken by lower sweeps in turn: two lower sweeps follow each other with nothing
// between that waits for the neighbours (those of z0 and z1 in correction()), and with one
// set a rank could store its next sweep's value before the neighbour had taken the last one.
// Every other pair of sweeps in one direction has an exchange or a sum over the ranks
// between, after which every rank's sweeps before it are complete.
void DeviceMatm::open_peer_slots(const GridBlock& block) {
  const auto neighbours = block.blocks.neighbours(block.rank);
  const index_t ni = own_.hi[0] - own_.lo[0], nj = own_.hi[1] - own_.lo[1],
                nk = own_.hi[2] - own_.lo[2];
  const index_t extent[3] = {ni, nj, nk};
  auto face_nodes = [&](int f) -> std::size_t {
    const int a = f / 2;
    return neighbours[f] < 0 ? 0
                             : static_cast<std::size_t>(extent[(a + 1) % 3] * extent[(a + 2) % 3]);
  };
  std::array<std::size_t, 7> offset{};
  for (int f = 0; f < 6; ++f)
    offset[f + 1] = offset[f] + (f % 2 == 0 ? 2 : 1) * face_nodes(f) * sizeof(double);
  peer_slots_ = offset[6] / sizeof(double);
  peers_.emplace(*block.comm, neighbours, offset, offset[6], "matm-cuda (sweep slots)");
  std::array<std::size_t, 7> faces;
  for (int f = 0; f <= 6; ++f) faces[f] = links_->halo().face_offset(f);
  peer_halo_.emplace(block, faces, sizeof(double));
  // Set `set` of this rank's slots for face f, and of the neighbour across f for its face
  // f xor 1 (which keeps our values); null where there is no neighbour.
  auto local = [&](int f, int set) {
    return neighbours[f] < 0
               ? nullptr
               : reinterpret_cast<double*>(peers_->local() + offset[f]) + set * face_nodes(f);
  };
  auto remote = [&](int f, int set) {
    return neighbours[f] < 0
               ? nullptr
               : reinterpret_cast<double*>(peers_->remote(f) + peers_->remote_offset(f)[f ^ 1]) +
                     set * face_nodes(f);
  };
  for (int axis = 0; axis < 3; ++axis) {
    const int lower_face = 2 * axis, upper_face = lower_face + 1;
    for (int set = 0; set < 2; ++set) {
      lower_peers_[set].in[axis] = local(lower_face, set);
      lower_peers_[set].out[axis] = remote(upper_face, set);
    }
    upper_peers_.in[axis] = local(upper_face, 0);
    upper_peers_.out[axis] = remote(lower_face, 0);
  }
}

// Each fragment, on every rank, in the same order: received from the ranks the sweep comes
// from, swept, sent on; rank r sweeps fragment q while rank r + 1 sweeps fragment q - 1.
void DeviceMatm::lower_sweep(const double* src, double omega, double* dot, bool of_product) {
  const int width = of_product ? 5 : 1;  // partials a tile leaves
  int tiles = 0;
  for (int q = 0; q < fragments_; ++q) {
    const SweepRange r = fragment(q, false);
    if (links_ && !peers_) receive_strips(y_, r, true);
    if (of_product)
      lower_sweep_of_product(view_, r, src, r_, y_, omega, shape_, tickets_, handoff_,
                             partials_ + width * tiles);
    else
      cuda::lower_sweep(view_, r, src, y_, omega, shape_, tickets_, handoff_,
                        dot ? partials_ + tiles : nullptr);
    tiles += sweep_tiles(r, shape_);
    if (links_ && !peers_) send_strips(y_, r, true);
  }
  if (dot) reduce_partials(partials_, tiles, width, dot);
  lower_set_ = 1 - lower_set_;
}

void DeviceMatm::upper_sweep(double omega) {
  for (int q = 0; q < fragments_; ++q) {
    const SweepRange r = fragment(q, true);
    if (links_ && !peers_) receive_strips(w_, r, false);
    cuda::upper_sweep(view_, r, y_, w_, omega, shape_, tickets_, handoff_);
    if (links_ && !peers_) send_strips(w_, r, false);
  }
}

// The staging copies are synchronous: a device-to-host copy returns once the host holds the
// values (it has to wait for the kernel before it anyway), and a copy from page-locked memory
// to the device once the buffer may be reused, so the next message can land in it at once.
// A copy in mostly finds the device idle (after a copy out or a fetched sum); only the first
// one of a sweep that follows a product waits for that product, which the sweep needs.
namespace {

// A strip of a device field to a packed face and back: to or from page-locked host memory
// (synchronous, as the staging needs) or device memory (this GPU's, or a neighbour's through
// PeerHalo; queued on the default stream).
void sync_if(bool host) {
  if (host) check(cudaStreamSynchronize(0), "cudaStreamSynchronize (strip)");
}

void strip_out(const Strip& s, const double* field, void* packed, bool host) {
  const std::size_t row = s.length * sizeof(double);
  check(cudaMemcpy2DAsync(packed, row, field + s.first, s.pitch * sizeof(double), row, s.rows,
                          host ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice, 0),
        "cudaMemcpy2DAsync (strip out of the field)");
  sync_if(host);
}

void strip_in(const Strip& s, const void* packed, double* field, bool host) {
  const std::size_t row = s.length * sizeof(double);
  check(cudaMemcpy2DAsync(field + s.first, s.pitch * sizeof(double), packed, row, row, s.rows,
                          host ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice, 0),
        "cudaMemcpy2DAsync (strip into the field)");
  sync_if(host);
}

}  // namespace

void DeviceMatm::exchange(double* field) {
  HaloExchange<double>& halo = links_->halo();
  if (peer_halo_) {
    // Own planes straight into the neighbours' buffers, then the planes received into the
    // ghost layer, all on the device (axis 1's faces, split only here, by kernels).
    for (int f = 0; f < 6; ++f) {
      if (halo.face_size(f) == 0) continue;
      auto* to = static_cast<double*>(peer_halo_->destination(f));
      if (f < 2)
        pack_axis1_face(view_, own_, f == 1, field, to);
      else
        strip_out(links_->face_strip(f, false), field, to, false);
    }
    peer_halo_->sent();
    const auto* received = static_cast<const double*>(peer_halo_->receive());
    for (int f = 0; f < 6; ++f) {
      if (halo.face_size(f) == 0) continue;
      if (f < 2)
        unpack_axis1_face(view_, own_, f == 1, received + halo.face_offset(f), field);
      else
        strip_in(links_->face_strip(f, true), received + halo.face_offset(f), field, false);
    }
    return;
  }
  const std::size_t size = halo.send_buffer().size();
  for (int f = 2; f < 6; ++f)
    if (halo.face_size(f) > 0)
      strip_out(links_->face_strip(f, false), field, staged_send_.data() + halo.face_offset(f),
                true);
  halo.transfer(std::span<const double>(staged_send_.data(), size),
                std::span<double>(staged_receive_.data(), size));
  for (int f = 2; f < 6; ++f)
    if (halo.face_size(f) > 0)
      strip_in(links_->face_strip(f, true), staged_receive_.data() + halo.face_offset(f), field,
               true);
}

void DeviceMatm::receive_strips(double* field, const SweepRange& r, bool forward) {
  const HaloExchange<double>& halo = links_->halo();
  for (const Strip& s : links_->fragment_strips(r.i0, r.i1, forward, true)) {
    if (!links_->pipelined()) {
      // The block coupling: the sweep reads 0 beyond the block (RankLinks::receive_fragment).
      check(cudaMemset2D(field + s.first, s.pitch * sizeof(double), 0, s.length * sizeof(double),
                         s.rows),
            "cudaMemset2D (ghost strip)");
      continue;
    }
    double* host = staged_receive_.data() + halo.face_offset(s.face);
    links_->receive(s, std::span<double>(host, s.size()));
    strip_in(s, host, field, true);
  }
}

void DeviceMatm::send_strips(const double* field, const SweepRange& r, bool forward) {
  if (!links_->pipelined()) return;
  const HaloExchange<double>& halo = links_->halo();
  for (const Strip& s : links_->fragment_strips(r.i0, r.i1, forward, false)) {
    double* host = staged_send_.data() + halo.face_offset(s.face);
    strip_out(s, field, host, true);
    links_->send(s, std::span<const double>(host, s.size()));
  }
}

double DeviceMatm::update_and_residual(double tau) {
  const bool steps_ghosts = peer_halo_ && exchanges_;
  if (steps_ghosts) {
    // GPU to GPU, each rank steps its ghost layer of x itself, from the ghosts of w that the
    // product of the last correction had fetched: the same x - tau w its neighbour takes on
    // those nodes, with no exchange of x and the step fused into the residual as on one
    // rank. x's ghosts come once, at the first residual.
    if (!x_ghosts_ || !w_ghosts_) clock_.mark(PhaseClock::exchange);
    if (!x_ghosts_) exchange(x_[current_]);
    if (!w_ghosts_) exchange(w_);
    x_ghosts_ = w_ghosts_ = true;
  } else if (exchanges_) {
    // As the CPU backend does: x - tau w on the own nodes, then x's ghost layer, then the
    // residual, so that a neighbour on the CPU sends and expects the updated x.
    clock_.mark(PhaseClock::residual);
    if (tau != 0.0) cuda::update(view_, own_, x_[current_], w_, tau);
    clock_.mark(PhaseClock::exchange);
    exchange(x_[current_]);
    clock_.mark(PhaseClock::residual);
    cuda::update_and_residual(view_, own_, x_[current_], w_, 0.0, nullptr, f_, r_, partials_,
                              sums_ + rr);
    return fetch_sums(rr, 1)[0];
  }
  // One rank, a block with no neighbour, or GPU to GPU: the step fused into the residual's
  // kernel.
  clock_.mark(PhaseClock::residual);
  if (steps_ghosts) update_ghosts(view_, own_, x_[current_], w_, tau, x_[1 - current_]);
  cuda::update_and_residual(view_, own_, x_[current_], w_, tau, x_[1 - current_], f_, r_, partials_,
                            sums_ + rr);
  current_ = 1 - current_;
  return fetch_sums(rr, 1)[0];
}

double DeviceMatm::omega_from_residual() {
  if (exchanges_) {
    clock_.mark(PhaseClock::exchange);
    exchange(r_);
  }
  clock_.mark(PhaseClock::residual);
  apply_split(view_, own_, r_, r_, z0_, nullptr, partials_, sums_ + d_w_w);
  // (D r, r), (D^-1 R2 r, R2 r): the CPU's two totals.
  const auto s = fetch_sums(d_w_w, 2);
  return s[1] > 0.0 ? std::sqrt(s[0] / s[1]) : 0.0;
}

// Staged, x - tau w reads w on the own nodes only, so w needs no ghost layer here; GPU to GPU
// the next residual steps x's ghosts from w's and fetches those first (w_ghosts_).
void DeviceMatm::precondition(double omega) {
  w_ghosts_ = false;
  clock_.mark(PhaseClock::lower_sweep);
  lower_sweep(r_, omega, nullptr);
  clock_.mark(PhaseClock::upper_sweep);
  upper_sweep(omega);
}

Dots DeviceMatm::correction(double omega) {
  precondition(omega);
  if (exchanges_) {
    clock_.mark(PhaseClock::exchange);
    exchange(w_);
    w_ghosts_ = true;
  }
  clock_.mark(PhaseClock::product);
  if (product_in_sweep(self_adjoint_, shape_)) {
    // A0 w formed inside the sweep, which also sums (D w, w) .. (r, w) into the slots
    // before binv_a0.
    lower_sweep(w_, omega, sums_ + d_w_w, true);
  } else {
    apply_split(view_, own_, w_, r_, z0_, z1_, partials_, sums_ + d_w_w);
    // z0 and z1 are read on the own nodes only: the sweeps need no ghosts of them.
    lower_sweep(z0_, omega, sums_ + binv_a0);
  }
  if (!self_adjoint_) {
    clock_.mark(PhaseClock::lower_sweep_a1);
    lower_sweep(z1_, omega, sums_ + binv_a1);
  }
  // The CPU's totals: five, or six with (B^-1 A1 w, A1 w), in this order.
  const auto s = fetch_sums(d_w_w, self_adjoint_ ? binv_a1 - d_w_w : slots - d_w_w);
  Dots d;
  d.d_w_w = s[0];
  d.r2_w = s[r2_w - d_w_w];
  d.a0_w_w = s[a0_w_w - d_w_w];
  d.b_w_w = s[b_w_w - d_w_w];
  d.binv_a0 = s[binv_a0 - d_w_w];
  d.binv_a1 = self_adjoint_ ? 0.0 : s[binv_a1 - d_w_w];
  return d;
}

}  // namespace solvent::matm::cuda
