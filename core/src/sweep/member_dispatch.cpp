#include "sweep/member_dispatch.hpp"

#include <solvent/errors.hpp>

#include <array>
#include <bit>
#include <cstdint>

#ifdef SOLVENT_HAVE_MPI
#include <mpi.h>
#endif

namespace solvent {

#ifdef SOLVENT_HAVE_MPI
namespace {
constexpr int request_tag = 1, answer_tag = 2;
constexpr std::int64_t none = -1;

// A request: the member ended (or none), its exit code, and its wall time's bits.
using Message = std::array<std::int64_t, 3>;
}  // namespace

struct MemberDispatch::Channel {
  MPI_Comm comm = MPI_COMM_NULL;
};

MemberDispatch::MemberDispatch() : channel_(std::make_unique<Channel>()) {
  MPI_Comm_dup(MPI_COMM_WORLD, &channel_->comm);
}

MemberDispatch::~MemberDispatch() { MPI_Comm_free(&channel_->comm); }

std::optional<MemberDispatch::Request> MemberDispatch::next_request() {
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, request_tag, channel_->comm, &arrived, &status);
  if (!arrived) return std::nullopt;
  Message m{};
  MPI_Recv(m.data(), int(m.size()), MPI_INT64_T, status.MPI_SOURCE, request_tag, channel_->comm,
           MPI_STATUS_IGNORE);
  Request r{status.MPI_SOURCE, std::nullopt};
  if (m[0] != none)
    r.finished = MemberEnd{std::size_t(m[0]), int(m[1]), std::bit_cast<double>(m[2])};
  return r;
}

void MemberDispatch::answer(int rank, std::optional<std::size_t> member) {
  const std::int64_t m = member ? std::int64_t(*member) : none;
  MPI_Send(&m, 1, MPI_INT64_T, rank, answer_tag, channel_->comm);
}

std::optional<std::size_t> MemberDispatch::ask(const std::optional<MemberEnd>& finished) {
  const Message m = finished ? Message{std::int64_t(finished->index), finished->exit_code,
                                       std::bit_cast<std::int64_t>(finished->wall)}
                             : Message{none, 0, 0};
  MPI_Send(m.data(), int(m.size()), MPI_INT64_T, 0, request_tag, channel_->comm);
  std::int64_t next = none;
  MPI_Recv(&next, 1, MPI_INT64_T, 0, answer_tag, channel_->comm, MPI_STATUS_IGNORE);
  return next == none ? std::nullopt : std::optional<std::size_t>(std::size_t(next));
}
#else
// Without MPI there is one rank, and the sweep never asks for a dispatch.
struct MemberDispatch::Channel {};
MemberDispatch::MemberDispatch() { throw Error("this Solvent was built without MPI"); }
MemberDispatch::~MemberDispatch() = default;
std::optional<MemberDispatch::Request> MemberDispatch::next_request() { return std::nullopt; }
void MemberDispatch::answer(int, std::optional<std::size_t>) {}
std::optional<std::size_t> MemberDispatch::ask(const std::optional<MemberEnd>&) {
  return std::nullopt;
}
#endif

}  // namespace solvent
