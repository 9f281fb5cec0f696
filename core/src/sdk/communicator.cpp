// The SDK's side of the ranks: the communicator of a run of one process. The world of a
// run under mpirun is the framework's (ranks/world.cpp).
#include <solvent/communicator.hpp>

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <cstring>

namespace solvent {

namespace {

class SingleRank final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  void barrier() const override {}
  void sum(std::span<double>) const override {}
  void max(std::span<double>) const override {}
  void broadcast(std::string&, int) const override {}
  std::vector<std::string> gather_all(const std::string& mine) const override { return {mine}; }
  void exchange(int peer, std::span<const std::byte> send,
                std::span<std::byte> receive) const override {
    // The one rank is its own neighbour on a periodic axis.
    if (peer != 0 || send.size() != receive.size())
      throw Error(fmt::format("exchange with rank {} in a run of one rank", peer));
    std::memcpy(receive.data(), send.data(), send.size());
  }
  void exchange(std::span<const Transfer> transfers) const override {
    for (const auto& t : transfers) exchange(t.peer, t.send, t.receive);
  }
  void send(int peer, std::span<const std::byte>) const override {
    throw Error(fmt::format("send to rank {} in a run of one rank", peer));
  }
  void receive(int peer, std::span<std::byte>) const override {
    throw Error(fmt::format("receive from rank {} in a run of one rank", peer));
  }
};

}  // namespace

const Communicator& single_rank() {
  static const SingleRank one;
  return one;
}

}  // namespace solvent
