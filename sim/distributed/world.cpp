#include "sim/distributed/world.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#ifdef HPLSIM_WITH_MPI
#include <mpi.h>
#endif

namespace hplsim::sim {

namespace {

World* g_world = nullptr;

// Open MPI's mpirun, PMIx-based launchers and MPICH's hydra each set one of these.
bool started_by_mpi_launcher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

} // namespace

World::World(int& argc, char**& argv) {
  g_world = this;
#ifdef HPLSIM_WITH_MPI
  if (!started_by_mpi_launcher()) return;
  MPI_Init(&argc, &argv);
  joined_ = true;
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  if (std::strstr(version, "Open MPI") == nullptr && std::strstr(version, "MPICH") == nullptr) {
    std::fprintf(stderr,
                 "hplsim: error: internal error (a bug in hplsim): MPI calls were bound to another library "
                 "than Open MPI (\"%s\"): "
                 "the hplsim executable must link libmpi before libsimgrid\n",
                 version);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#else
  (void)argc;
  (void)argv;
  (void)started_by_mpi_launcher;
#endif
}

World::~World() {
#ifdef HPLSIM_WITH_MPI
  if (joined_) MPI_Finalize();
#endif
  if (g_world == this) g_world = nullptr;
}

const World& World::current() {
  static const World alone;
  return g_world != nullptr ? *g_world : alone;
}

std::vector<std::string> World::gather(const std::string& mine) const {
  if (size_ == 1) return {mine};
#ifdef HPLSIM_WITH_MPI
  const long long mine_bytes = static_cast<long long>(mine.size());
  if (mine_bytes > 2147483647LL) throw std::runtime_error("gather: a rank's answer exceeds 2 GiB");
  int count = static_cast<int>(mine_bytes);
  std::vector<int> counts(is_root() ? static_cast<std::size_t>(size_) : 0U);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(counts.size());
  long long total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    offsets[r] = static_cast<int>(total);
    total += counts[r];
  }
  if (total > 2147483647LL) throw std::runtime_error("gather: the answers exceed 2 GiB");
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Gatherv(mine.data(), count, MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < counts.size(); ++r)
    out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(counts[r])));
  return out;
#else
  throw std::logic_error("World::gather: a world of more than one process without MPI");
#endif
}

void World::abort(int exit_code) const {
#ifdef HPLSIM_WITH_MPI
  if (joined_ && size_ > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
#else
  (void)exit_code;
#endif
}

std::string pack_items(const std::vector<std::pair<std::size_t, std::string>>& items) {
  std::string out;
  for (const auto& [index, bytes] : items) {
    const std::uint64_t head[2] = {index, bytes.size()};
    out.append(reinterpret_cast<const char*>(head), sizeof head);
    out.append(bytes);
  }
  return out;
}

std::vector<std::pair<std::size_t, std::string>> unpack_items(const std::string& packed) {
  std::vector<std::pair<std::size_t, std::string>> items;
  std::size_t at = 0;
  while (at < packed.size()) {
    std::uint64_t head[2];
    if (packed.size() - at < sizeof head) throw std::runtime_error("unpack_items: a header is cut short");
    std::memcpy(head, packed.data() + at, sizeof head);
    at += sizeof head;
    if (packed.size() - at < head[1]) throw std::runtime_error("unpack_items: an item is cut short");
    items.emplace_back(static_cast<std::size_t>(head[0]),
                       packed.substr(at, static_cast<std::size_t>(head[1])));
    at += static_cast<std::size_t>(head[1]);
  }
  return items;
}

} // namespace hplsim::sim
