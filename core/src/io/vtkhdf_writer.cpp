#include "io/vtkhdf_writer.hpp"

#include "io/output_manifest.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#ifdef SOLVENT_HAVE_HDF5
#include <hdf5.h>
#ifdef H5_HAVE_PARALLEL
#include <mpi.h>
#endif
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#endif

namespace solvent {

#ifndef SOLVENT_HAVE_HDF5

bool vtkhdf_available() { return false; }

void write_vtkhdf_image(const std::filesystem::path& file, const VtkImage&,
                        const std::array<std::int64_t, 3>&, const VtkhdfBlock&,
                        const std::vector<std::string>&, std::span<const double>, bool,
                        std::optional<double>, const Communicator&) {
  // The configuration refuses format = "vtkhdf" in such a build; reaching this is a bug.
  throw Error(fmt::format("{}: Solvent was built without HDF5 and cannot write VTKHDF",
                          file.string()));
}

#else

bool vtkhdf_available() { return true; }

namespace {

namespace fs = std::filesystem;

// HDF5's own description of the innermost failure (an errno text where the OS refused),
// gathered from its error stack instead of the stack trace HDF5 prints by default.
std::string hdf5_reason() {
  std::string reason;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* out) -> herr_t {
        auto& r = *static_cast<std::string*>(out);
        if (n == 0 && e->desc) r = e->desc;
        return 0;
      },
      &reason);
  H5Eclear2(H5E_DEFAULT);
  return reason.empty() ? "HDF5 gave no reason" : reason;
}

// An HDF5 identifier closed when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  // Closes now, reporting failure (the file's close writes its last metadata).
  herr_t close() {
    const herr_t r = id_ >= 0 ? close_(id_) : 0;
    id_ = -1;
    return r;
  }
  operator hid_t() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

class Writer {
 public:
  explicit Writer(fs::path file) : file_(std::move(file)) {}

  hid_t check(hid_t id, const char* what) const {
    if (id < 0) fail(what);
    return id;
  }
  void check_status(herr_t r, const char* what) const {
    if (r < 0) fail(what);
  }
  [[noreturn]] void fail(const char* what) const {
    throw Error(fmt::format("cannot write {}: {}: {}", file_.string(), what, hdf5_reason()));
  }

  // A one-dimensional attribute of `n` values of the file type `type`.
  template <class T>
  void attribute(hid_t group, const char* name, hid_t type, hid_t memory, const T* v,
                 hsize_t n) const {
    Handle space(check(H5Screate_simple(1, &n, nullptr), name), H5Sclose);
    Handle a(check(H5Acreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT), name), H5Aclose);
    check_status(H5Awrite(a, memory, v), name);
  }

  void text_attribute(hid_t group, const char* name, const std::string& text) const {
    Handle type(check(H5Tcopy(H5T_C_S1), name), H5Tclose);
    check_status(H5Tset_size(type, text.size()), name);
    check_status(H5Tset_strpad(type, H5T_STR_NULLPAD), name);
    Handle space(check(H5Screate(H5S_SCALAR), name), H5Sclose);
    Handle a(check(H5Acreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT), name), H5Aclose);
    check_status(H5Awrite(a, type, text.data()), name);
  }

 private:
  fs::path file_;
};

fs::path partial_name(const fs::path& file) {
  auto p = file;
  p += ".partial";
  return p;
}

// The bytes reach the disk before the rename, as write_file_atomic's do.
void sync_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    throw Error(fmt::format("cannot write {}: {}", path.string(), std::strerror(err)));
  }
  ::close(fd);
}

// Long because it is one file's structure in the order HDF5 wants it made; every step below
// is collective over the ranks where there are several.
void write_partial(const fs::path& file, const fs::path& partial, const VtkImage& image,
                   const std::array<std::int64_t, 3>& nodes, const VtkhdfBlock& block,
                   const std::vector<std::string>& components, std::span<const double> u,
                   std::size_t points, bool float32, std::optional<double> time,
                   const Communicator& comm) {
  const Writer w(file);
  const bool parallel = comm.size() > 1;
  // Where every rank's block is one run of the file (whole planes of axes 1 and 2, the
  // automatic split's blocks), each rank writes its run independently: a collective write
  // would first pass the values between the ranks (two-phase I/O) for nothing, which made 2
  // and 4 ranks slower than one (docs/benchmarks.md, "Writing fields"). Blocks cut along
  // axis 1 or 2 are many short runs, which collective I/O merges into large writes. Every
  // rank takes the same mode.
  double scattered = block.count[0] == nodes[0] && block.count[1] == nodes[1] ? 0.0 : 1.0;
  if (parallel) comm.max(std::span<double>(&scattered, 1));

  Handle fapl(w.check(H5Pcreate(H5P_FILE_ACCESS), "file access"), H5Pclose);
  Handle dxpl(w.check(H5Pcreate(H5P_DATASET_XFER), "transfer"), H5Pclose);
  if (parallel) {
#ifdef H5_HAVE_PARALLEL
    // Several ranks only run under mpirun, whose world is the run's communicator.
    w.check_status(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL), "MPI-IO");
    w.check_status(H5Pset_all_coll_metadata_ops(fapl, true), "collective metadata");
    w.check_status(H5Pset_coll_metadata_write(fapl, true), "collective metadata");
    w.check_status(
        H5Pset_dxpl_mpio(dxpl, scattered != 0.0 ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT),
        "transfer mode");
#else
    throw Error(fmt::format("cannot write {} from {} ranks: this HDF5 is not parallel",
                            file.string(), comm.size()));
#endif
  }
  const hid_t created = H5Fcreate(partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (created < 0) {
    // MPI-IO says only "bad file"; the OS says why, when asked itself.
    H5Eclear2(H5E_DEFAULT);
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) ::close(fd);
    throw Error(fmt::format("cannot write {}: cannot create {}: {}", file.string(),
                            partial.filename().string(),
                            fd < 0 ? std::strerror(errno) : "HDF5 could not create it"));
  }
  Handle f(created, H5Fclose);
  Handle root(w.check(H5Gcreate2(f, "VTKHDF", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "/VTKHDF"),
              H5Gclose);
  const std::int64_t version[2] = {1, 0};
  w.attribute(root, "Version", H5T_STD_I64LE, H5T_NATIVE_INT64, version, 2);
  w.text_attribute(root, "Type", "ImageData");
  const std::int64_t extent[6] = {0, nodes[0] - 1, 0, nodes[1] - 1, 0, nodes[2] - 1};
  w.attribute(root, "WholeExtent", H5T_STD_I64LE, H5T_NATIVE_INT64, extent, 6);
  w.attribute(root, "Origin", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, image.origin.data(), 3);
  w.attribute(root, "Spacing", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, image.spacing.data(), 3);
  const double direction[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  w.attribute(root, "Direction", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, direction, 9);

  if (time) {
    Handle fd(w.check(H5Gcreate2(root, "FieldData", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                      "FieldData"),
              H5Gclose);
    const hsize_t one = 1;
    Handle space(w.check(H5Screate_simple(1, &one, nullptr), "TimeValue"), H5Sclose);
    Handle d(w.check(H5Dcreate2(fd, "TimeValue", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                                H5P_DEFAULT),
                     "TimeValue"),
             H5Dclose);
    // Every rank takes part (collective); one value, the same on all.
    w.check_status(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, dxpl, &*time), "TimeValue");
  }

  Handle pd(w.check(H5Gcreate2(root, "PointData", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                    "PointData"),
            H5Gclose);
  // HDF5's dimensions run slowest first: (n3, n2, n1).
  const hsize_t whole[3] = {hsize_t(nodes[2]), hsize_t(nodes[1]), hsize_t(nodes[0])};
  const hsize_t start[3] = {hsize_t(block.first[2]), hsize_t(block.first[1]),
                            hsize_t(block.first[0])};
  const hsize_t count[3] = {hsize_t(block.count[2]), hsize_t(block.count[1]),
                            hsize_t(block.count[0])};
  Handle file_space(w.check(H5Screate_simple(3, whole, nullptr), "dataspace"), H5Sclose);
  w.check_status(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr),
                 "hyperslab");
  const hsize_t held[3] = {hsize_t(block.held[2]), hsize_t(block.held[1]), hsize_t(block.held[0])};
  const hsize_t origin[3] = {0, 0, 0};
  Handle memory_space(w.check(H5Screate_simple(3, held, nullptr), "dataspace"), H5Sclose);
  w.check_status(H5Sselect_hyperslab(memory_space, H5S_SELECT_SET, origin, nullptr, count, nullptr),
                 "hyperslab");
  Handle dcpl(w.check(H5Pcreate(H5P_DATASET_CREATE), "dataset creation"), H5Pclose);
  // Every value is written below: filling the dataset first would write it twice.
  w.check_status(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), "fill time");
  for (std::size_t c = 0; c < components.size(); ++c) {
    const char* name = components[c].c_str();
    Handle d(w.check(H5Dcreate2(pd, name, float32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, file_space,
                                H5P_DEFAULT, dcpl, H5P_DEFAULT),
                     name),
             H5Dclose);
    w.check_status(
        H5Dwrite(d, H5T_NATIVE_DOUBLE, memory_space, file_space, dxpl, u.data() + c * points),
        name);
  }
  pd.close();
  root.close();
  w.check_status(f.close(), "closing the file");
}

}  // namespace

void write_vtkhdf_image(const fs::path& file, const VtkImage& image,
                        const std::array<std::int64_t, 3>& nodes, const VtkhdfBlock& block,
                        const std::vector<std::string>& components, std::span<const double> u,
                        bool float32, std::optional<double> time, const Communicator& comm) {
  VtkhdfBlock b = block;
  for (std::size_t d = 0; d < 3; ++d) {
    if (b.held[d] == 0) b.held[d] = b.count[d];
    if (b.held[d] < b.count[d])
      throw Error(fmt::format("{}: values over {} nodes of axis {} for a block of {}",
                              file.string(), b.held[d], d + 1, b.count[d]));
  }
  const std::size_t points = static_cast<std::size_t>(b.held[0] * b.held[1] * b.held[2]);
  if (u.size() != points * components.size())
    throw Error(fmt::format("{}: a block of {} nodes and {} components given {} values",
                            file.string(), points, components.size(), u.size()));
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become messages, not stack dumps
  const fs::path partial = partial_name(file);
  try {
    write_partial(file, partial, image, nodes, b, components, u, points, float32, time, comm);
  } catch (const Error&) {
    std::error_code ec;
    if (comm.rank() == 0) fs::remove(partial, ec);  // a file cut short is not kept
    throw;
  }
  if (comm.rank() == 0) {
    sync_file(partial);
    std::error_code ec;
    fs::rename(partial, file, ec);
    if (ec)
      throw Error(fmt::format("cannot rename {} to {}: {}", partial.string(), file.string(),
                              ec.message()));
    note_written(file);  // listed in the record, so that --overwrite removes it
  }
}

#endif

}  // namespace solvent
