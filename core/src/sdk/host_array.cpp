#include <solvent/host_array.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace solvent::host_memory {
namespace {

// Below this an array comes from malloc: the pages of a small array are not worth a mapping,
// and threads would share them.
constexpr std::size_t mapped_from = std::size_t(2) << 20;
constexpr std::size_t page = 4096;

}  // namespace

void* allocate_zeroed(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (bytes < mapped_from) {
    void* p = std::calloc(bytes, 1);
    if (!p) throw std::bad_alloc();
    return p;
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  // Huge pages where the kernel allows them on request (transparent_hugepage = madvise); a
  // refusal leaves 4 KiB pages, which are only slower to fault.
  madvise(p, bytes, MADV_HUGEPAGE);
  // A fresh mapping reads as zeros; writing one byte of each page makes the kernel fault (and
  // clear) it now, on the thread whose share of the array it is, rather than later on one.
  auto* bytes_of = static_cast<unsigned char*>(p);
  const auto pages = static_cast<std::ptrdiff_t>((bytes + page - 1) / page);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < pages; ++i) bytes_of[static_cast<std::size_t>(i) * page] = 0;
  return p;
}

void prefault(void* p, std::size_t bytes) noexcept {
  const auto start = (reinterpret_cast<std::uintptr_t>(p) + page - 1) / page * page;
  const auto end = reinterpret_cast<std::uintptr_t>(p) + bytes;
  if (end <= start) return;
  madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
  // An atomic or of 0 is a write the page faults on, and leaves what the byte held.
  auto* first = reinterpret_cast<unsigned char*>(start);
  const auto pages = static_cast<std::ptrdiff_t>((end - start + page - 1) / page);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < pages; ++i)
    __atomic_fetch_or(first + static_cast<std::size_t>(i) * page, 0, __ATOMIC_RELAXED);
}

void release(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  if (bytes < mapped_from)
    std::free(p);
  else
    munmap(p, bytes);
}

void copy(void* dst, const void* src, std::size_t bytes) noexcept {
  constexpr std::size_t chunk = std::size_t(1) << 20;
  const auto chunks = static_cast<std::ptrdiff_t>((bytes + chunk - 1) / chunk);
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t c = 0; c < chunks; ++c) {
    const std::size_t at = static_cast<std::size_t>(c) * chunk;
    std::memcpy(d + at, s + at, std::min(chunk, bytes - at));
  }
}

}  // namespace solvent::host_memory
