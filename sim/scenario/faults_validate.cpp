// Validation of the scenario's faults (sim/scenario/faults.proto): each
// field's range, the indices against the machine and the run, and the
// combinations hplsim does not simulate (refused, never ignored).
#include <fstream>
#include <set>
#include <string>

#include "sim/scenario/machine_topology.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_paths.hpp"
#include "sim/scenario/scenario_validate.hpp"

namespace hplsim::sim::detail {

namespace {

std::string str(std::int64_t v) {
  return std::to_string(v);
}

void check_duration(const Checker& c, const Duration& d, const std::string& path) {
  const MessageCheck m(c, d, path);
  m.required("law");
  if (d.law() == Duration::LAW_UNSET)
    m.fail("law", m.path("law") + " must be FIXED, EXPONENTIAL or LOGNORMAL");
  m.positive("mean_s", Need::Required);
  if (d.law() == Duration::LOGNORMAL)
    m.positive("cv", Need::Required);
  else if (m.has("cv"))
    m.fail("cv", m.path("cv") + " is for LOGNORMAL durations only");
}

void check_link(const Checker& c, const LinkRef& link, const std::string& path,
                const topo::Topology* topology) {
  const MessageCheck m(c, link, path);
  m.required("link_class");
  if (link.link_class() == LINK_CLASS_UNSET)
    m.fail("link_class", m.path("link_class") + " must be NIC_PORT, SWITCH_LOCAL or GLOBAL");
  m.at_least("index", 0, Need::Required);
  const std::int64_t count = static_cast<std::int64_t>(links_of_class(*topology, link.link_class()).size());
  if (count == 0)
    m.fail("link_class",
           m.path("link_class") + ": the machine has no " + LinkClass_Name(link.link_class()) + " links");
  if (link.index() >= count)
    m.fail("index", m.path("index") + " = " + str(link.index()) + " but the machine has " + str(count) + " " +
                        LinkClass_Name(link.link_class()) + " links (0.." + str(count - 1) + ")");
}

void check_failure_process(const Checker& c, const FailureProcess& f, const std::string& path, int nodes) {
  const MessageCheck m(c, f, path);
  m.required("law");
  if (f.law() == FailureProcess::LAW_UNSET) m.fail("law", m.path("law") + " must be EXPONENTIAL or WEIBULL");
  if (f.law() == FailureProcess::EXPONENTIAL) {
    if (m.has("rate_per_node_per_hour") == (f.components_size() > 0))
      m.fail("rate_per_node_per_hour", m.path("rate_per_node_per_hour") + " or " + m.path("components") +
                                           ": give exactly one of them for EXPONENTIAL failures");
    m.non_negative("rate_per_node_per_hour");
    if (m.has("weibull_shape") || m.has("weibull_scale_hours"))
      m.fail("weibull_shape",
             m.path("weibull_shape") + " and weibull_scale_hours are for WEIBULL failures only");
  } else {
    m.positive("weibull_shape", Need::Required);
    m.positive("weibull_scale_hours", Need::Required);
    if (m.has("rate_per_node_per_hour") || f.components_size() > 0)
      m.fail("rate_per_node_per_hour",
             m.path("rate_per_node_per_hour") + " and components are for EXPONENTIAL failures only");
  }
  std::set<std::string> names;
  for (int i = 0; i < f.components_size(); ++i) {
    const MessageCheck k(c, f.components(i), path + ".components[" + str(i) + "]");
    k.required("name");
    if (f.components(i).name().empty()) k.fail("name", k.path("name") + " must not be empty");
    if (!names.insert(f.components(i).name()).second)
      k.fail("name", k.path("name") + " \"" + f.components(i).name() + "\" is given twice");
    k.at_least("count_per_node", 1, Need::Required);
    k.non_negative("rate_per_hour", Need::Required);
  }
  for (int i = 0; i < f.domains_size(); ++i) {
    const MessageCheck d(c, f.domains(i), path + ".domains[" + str(i) + "]");
    d.required("kind");
    if (f.domains(i).kind() == FailureProcess::Domain::KIND_UNSET)
      d.fail("kind", d.path("kind") + " must be CHASSIS, CABINET or GROUP");
    d.at_least("nodes_per_domain", 1, Need::Required);
    if (f.domains(i).nodes_per_domain() > nodes)
      d.fail("nodes_per_domain", d.path("nodes_per_domain") + " = " + str(f.domains(i).nodes_per_domain()) +
                                     " exceeds the run's " + str(nodes) + " nodes");
    d.non_negative("rate_per_domain_per_hour", Need::Required);
  }
}

void check_prescreen(const Checker& c, const Prescreen& p, const std::string& base_dir) {
  const MessageCheck m(c, p, "faults.prescreen");
  m.in_range("drop_slowest_fraction", 0.0, true, 1.0, false);
  if (!m.has("drop_nodes_file")) return;
  const ScenarioFile file = find_scenario_file(base_dir, p.drop_nodes_file());
  if (!file.found)
    m.fail("drop_nodes_file", m.path("drop_nodes_file") + " \"" + p.drop_nodes_file() +
                                  "\": no such file; tried " + describe_tried(file));
  std::ifstream in(file.path);
  if (!in) m.fail("drop_nodes_file", m.path("drop_nodes_file") + ": cannot open " + file.path);
}

} // namespace

void check_faults(const Checker& c, const Scenario& s, const ResolvedScenario& r,
                  const std::string& base_dir) {
  if (!s.has_faults()) return;
  const Faults& f = s.faults();
  const int nodes = r.workload.nodes;
  std::unique_ptr<topo::Topology> topology;
  if (f.link_flaps_size() > 0 || f.has_flap_process()) topology = make_topology(r.machine);
  for (int i = 0; i < f.link_flaps_size(); ++i) {
    const std::string path = "faults.link_flaps[" + str(i) + "]";
    const MessageCheck m(c, f.link_flaps(i), path);
    m.required("link");
    check_link(c, f.link_flaps(i).link(), path + ".link", topology.get());
    m.non_negative("start_s", Need::Required);
    m.positive("duration_s", Need::Required);
  }
  if (f.has_flap_process()) {
    std::set<int> seen;
    for (int i = 0; i < f.flap_process().classes_size(); ++i) {
      const auto& k = f.flap_process().classes(i);
      const std::string path = "faults.flap_process.classes[" + str(i) + "]";
      const MessageCheck m(c, k, path);
      m.required("link_class");
      if (k.link_class() == LINK_CLASS_UNSET)
        m.fail("link_class", m.path("link_class") + " must be NIC_PORT, SWITCH_LOCAL or GLOBAL");
      if (!seen.insert(k.link_class()).second)
        m.fail("link_class", m.path("link_class") + " " + LinkClass_Name(k.link_class()) + " is given twice");
      if (links_of_class(*topology, k.link_class()).empty())
        m.fail("link_class",
               m.path("link_class") + ": the machine has no " + LinkClass_Name(k.link_class()) + " links");
      m.non_negative("rate_per_link_per_hour", Need::Required);
      m.required("duration");
      check_duration(c, k.duration(), path + ".duration");
    }
  }
  for (int i = 0; i < f.node_failures_size(); ++i) {
    const MessageCheck m(c, f.node_failures(i), "faults.node_failures[" + str(i) + "]");
    m.at_least("node", 0, Need::Required);
    if (f.node_failures(i).node() >= nodes)
      m.fail("node",
             m.path("node") + " = " + str(f.node_failures(i).node()) + " but the run has " + str(nodes) +
                 " nodes (0.." + str(nodes - 1) + ")",
             {m.path("node"), "workload.nodes"});
    m.non_negative("time_s", Need::Required);
  }
  if (f.has_failure_process()) check_failure_process(c, f.failure_process(), "faults.failure_process", nodes);
  const int gpus = r.machine.node.gpus_per_node();
  for (int i = 0; i < f.degradations_size(); ++i) {
    const auto& d = f.degradations(i);
    const MessageCheck m(c, d, "faults.degradations[" + str(i) + "]");
    m.at_least("node", 0, Need::Required);
    if (d.node() >= nodes)
      m.fail("node", m.path("node") + " = " + str(d.node()) + " but the run has " + str(nodes) + " nodes",
             {m.path("node"), "workload.nodes"});
    if (m.has("gpu") && (d.gpu() < -1 || d.gpu() >= gpus))
      m.fail("gpu", m.path("gpu") + " = " + str(d.gpu()) + " must be -1 (the whole node) or a GPU 0.." +
                        str(gpus - 1) + " of the node");
    m.in_range("rate_factor", 0.0, false, 1.0, true, Need::Required);
    m.non_negative("from_s");
  }
  if (f.has_prescreen()) check_prescreen(c, f.prescreen(), base_dir);
  for (int i = 0; i < f.retry().waits_s_size(); ++i)
    if (!(f.retry().waits_s(i) >= 0.0))
      c.fail("faults.retry.waits_s",
             "faults.retry.waits_s[" + str(i) + "] must be >= 0, got " + format_number(f.retry().waits_s(i)));
  if (f.has_retry()) {
    MessageCheck r(c, f.retry(), "faults.retry");
    r.non_negative("timeout_s");
    r.non_negative("collective_recovery_s");
  }
  MessageCheck(c, f, "faults").non_negative("restart_setup_s");
}

} // namespace hplsim::sim::detail
