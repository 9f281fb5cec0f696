#pragma once
// Under mpirun, the members of a sweep go to the ranks as they free up: each rank other than
// 0 asks rank 0 for a member, runs it (in a process of its own, as without mpirun), reports
// how it ended and asks again; rank 0 answers each request with the next member still to
// run, or with none when there is no more, runs members itself in between, and forms the
// results. Members therefore spread by how long each takes, not by a split fixed beforehand.
// Its messages go over a communicator of their own (a duplicate of the world's).
#include "sweep/member_processes.hpp"

#include <memory>
#include <optional>

namespace solvent {

class MemberDispatch {
 public:
  MemberDispatch();  // on every rank at once
  ~MemberDispatch();
  MemberDispatch(const MemberDispatch&) = delete;
  MemberDispatch& operator=(const MemberDispatch&) = delete;

  // Rank 0: a request that has arrived, if any — who asks, and the member it has just ended.
  struct Request {
    int rank = 0;
    std::optional<MemberEnd> finished;
  };
  std::optional<Request> next_request();
  // Rank 0: the member that rank is to run next, or none: it has finished its part.
  void answer(int rank, std::optional<std::size_t> member);

  // Another rank: reports the member it has ended (none on its first request) and waits for
  // its next one (none: it has finished its part).
  std::optional<std::size_t> ask(const std::optional<MemberEnd>& finished);

 private:
  struct Channel;
  std::unique_ptr<Channel> channel_;
};

}  // namespace solvent
