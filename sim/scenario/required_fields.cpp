// The fields every scenario must give, all reported at once (a scenario that
// lacks several learns of each in one attempt), each at the block it belongs
// in: workload.n missing is reported at the line of `workload {`.
#include <string>
#include <vector>

#include "sim/scenario/scenario_validate.hpp"

namespace hplsim::sim::detail {

namespace {

struct Required {
  const char* field;
  const char* what; // what the value is, in the user's words
};

// In the order of scenario.proto; each list is the message's "required" fields.
const std::vector<Required> kTop = {{"machine", "the nodes and the network they are on"},
                                    {"workload", "the run: its nodes, ranks per node, N, NB, P and Q"}};
const std::vector<Required> kMachine = {{"topology", "the network: dragonfly, fat_tree or dragonfly_plus"},
                                        {"node", "one node: its sockets, cores, GPUs, NICs and memory"}};
const std::vector<Required> kNode = {{"sockets", "sockets per node"},
                                     {"cores_per_socket", "cores per socket"},
                                     {"nics_per_socket", "NICs per socket"},
                                     {"nic_bandwidth_bytes_per_s", "each NIC's bandwidth per direction"},
                                     {"shm_bandwidth_bytes_per_s", "the shared-memory copy bandwidth"}};
const std::vector<Required> kWorkload = {{"nodes", "the nodes the run uses"},
                                         {"ranks_per_node", "MPI ranks per node"},
                                         {"n", "the matrix order N"},
                                         {"nb", "the block size NB"},
                                         {"p", "process rows P"},
                                         {"q", "process columns Q"}};

// Reports each field of `fields` that `m` lacks; `block` names where it goes.
void report_missing(const MessageCheck& m, const std::vector<Required>& fields) {
  for (const Required& r : fields) {
    if (m.has(r.field)) continue;
    const std::string where =
        m.path().empty() ? "at the top level of the file" : "inside the " + m.path() + " { } block";
    m.report(r.field, m.path(r.field) + " is required (" + r.what + "), " + where);
  }
}

} // namespace

void check_required_fields(const Checker& c, const Scenario& s) {
  report_missing(MessageCheck(c, s, ""), kTop);
  if (s.has_machine()) {
    report_missing(MessageCheck(c, s.machine(), "machine"), kMachine);
    if (s.machine().has_node()) report_missing(MessageCheck(c, s.machine().node(), "machine.node"), kNode);
  }
  if (s.has_workload()) report_missing(MessageCheck(c, s.workload(), "workload"), kWorkload);
  c.throw_reported();
}

} // namespace hplsim::sim::detail
