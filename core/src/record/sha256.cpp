#include "record/sha256.hpp"

#include <solvent/errors.hpp>

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>

namespace solvent {

namespace {
class Sha256 {
 public:
  Sha256() : ctx_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr);
  }
  void update(const char* data, std::size_t n) { EVP_DigestUpdate(ctx_.get(), data, n); }
  std::string hex() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned int len = 0;
    EVP_DigestFinal_ex(ctx_.get(), md.data(), &len);
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < len; ++i) {
      out += digits[md[i] >> 4];
      out += digits[md[i] & 15];
    }
    return out;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_;
};
}  // namespace

std::string sha256_of_file(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot read " + path.string() + " to hash it");
  Sha256 digest;
  std::array<char, 1 << 16> buf{};
  while (f) {
    f.read(buf.data(), buf.size());
    digest.update(buf.data(), static_cast<std::size_t>(f.gcount()));
  }
  return digest.hex();
}

std::string sha256_of(std::string_view bytes) {
  Sha256 digest;
  digest.update(bytes.data(), bytes.size());
  return digest.hex();
}

}  // namespace solvent
