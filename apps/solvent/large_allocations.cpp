// The solvent command's global operator new: every block of 64 MiB or more (a grid's
// right-hand side, a solution, a copy of either, in any plugin's std::vector) has its pages
// faulted in by all the host's threads, in huge pages, as soon as it is allocated. The
// block's first write, a std::vector's value-initialisation, otherwise faults the pages one
// by one from one thread: about 0.65 s a GiB on the lent GPU hosts (1.4 s for the right-hand
// side and solution of a 512^3 grid before its first iteration), against 0.03 s from 16
// threads in huge pages. Memory still comes from malloc and goes back to free; only the
// solvent program replaces operator new (a library must not), so embedding programs keep
// their own.
#include <solvent/host_array.hpp>

#include <cstdlib>
#include <new>

namespace {
constexpr std::size_t prefaulted_from = std::size_t(64) << 20;
}

void* operator new(std::size_t bytes) {
  for (;;) {
    if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) {
      if (bytes >= prefaulted_from) solvent::host_memory::prefault(p, bytes);
      return p;
    }
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

void* operator new[](std::size_t bytes) { return ::operator new(bytes); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
