// The scenario's validation rules: required fields, ranges, and the
// combinations that make a run impossible (grid vs ranks, ranks vs cores and
// GPUs, nodes vs the topology's ports). Each problem is located at the offending
// field (or the override that set it). A field's own rules stop at the first
// problem; the combinations of fields (grid vs ranks, nodes, cores, GPUs,
// memory) are all checked and reported together in one ScenarioError.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "models/kernel_model.hpp"
#include "models/protocol_model.hpp"
#include "models/variability.hpp"
#include "sim/scenario/memory_fit.hpp"
#include "sim/scenario/scenario_check.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_paths.hpp"
#include "sim/scenario/scenario_validate.hpp"

#include "traces/hpl_code.hpp"

namespace hplsim::sim::detail {
namespace pb = google::protobuf;

namespace {

using Int = std::int64_t; // wide enough for products of int32 fields

std::string str(Int v) {
  return format_number(v);
}

void check_dragonfly(const MessageCheck& d) {
  d.at_least("groups", 1, Need::Required);
  d.at_least("switches_per_group", 1, Need::Required);
  d.at_least("endpoint_ports_per_switch", 1, Need::Required);
  if (d.integer("groups") > 1)
    d.required("global_links_per_group_pair", "with groups > 1 (groups = " + str(d.integer("groups")) + ")");
  d.at_least("global_links_per_group_pair", 1);
  d.at_least("switches_per_node", 1);
  if (d.has("switches_per_node") && d.integer("switches_per_node") > d.integer("switches_per_group"))
    d.fail("switches_per_node",
           d.path("switches_per_node") + " = " + str(d.integer("switches_per_node")) +
               " exceeds switches_per_group = " + str(d.integer("switches_per_group")),
           {d.path("switches_per_node"), d.path("switches_per_group")});
  d.positive("local_link_bandwidth_bytes_per_s", Need::Required);
  d.positive("global_link_bandwidth_bytes_per_s", Need::Required);
  d.non_negative("link_latency_s");
  d.non_negative("switch_latency_s");
}

void check_fat_tree(const MessageCheck& f) {
  f.at_least("leaf_switches", 1, Need::Required);
  f.at_least("spine_switches", 1, Need::Required);
  f.at_least("endpoint_ports_per_leaf", 1, Need::Required);
  f.at_least("links_per_leaf_spine", 1);
  f.positive("link_bandwidth_bytes_per_s", Need::Required);
  f.non_negative("link_latency_s");
  f.non_negative("switch_latency_s");
}

void check_dragonfly_plus(const MessageCheck& d) {
  for (const char* field : {"groups", "leaves_per_group", "spines_per_group", "endpoint_ports_per_leaf"})
    d.at_least(field, 1, Need::Required);
  d.at_least("links_per_leaf_spine", 1);
  if (d.integer("groups") > 1)
    for (const char* field : {"global_links_per_group_pair", "global_ports_per_spine"})
      d.required(field, "with groups > 1 (groups = " + str(d.integer("groups")) + ")");
  d.at_least("global_links_per_group_pair", 1);
  d.at_least("global_ports_per_spine", 0);
  // Shpiner et al. 2017: a group's global links end on its spines, spread
  // round-robin (topologies/dragonfly_plus.hpp): the busiest spine needs this many ports.
  const Int ends = (d.integer("groups") - 1) * d.integer("global_links_per_group_pair");
  const Int needed = (ends + d.integer("spines_per_group") - 1) / d.integer("spines_per_group");
  if (d.integer("global_ports_per_spine") < needed)
    d.fail("global_ports_per_spine",
           d.path("global_ports_per_spine") + " = " + str(d.integer("global_ports_per_spine")) +
               " is too few: ceil((groups-1)*global_links_per_group_pair / spines_per_group) = ceil(" +
               str(ends) + " / " + str(d.integer("spines_per_group")) + ") = " + str(needed) +
               " global links end on the busiest spine",
           {d.path("global_ports_per_spine"), d.path("global_links_per_group_pair"),
            d.path("spines_per_group")});
  d.positive("leaf_spine_link_bandwidth_bytes_per_s", Need::Required);
  d.positive("global_link_bandwidth_bytes_per_s", Need::Required);
  d.non_negative("link_latency_s");
  d.non_negative("switch_latency_s");
}

/// Topology fields and its node capacity (needs the node's NIC count).
void check_topology(const Checker& c, const Topology& t, const MessageCheck& node) {
  const MessageCheck topo(c, t, "machine.topology");
  if (!t.has_dragonfly() && !t.has_fat_tree() && !t.has_dragonfly_plus())
    c.fail("machine.topology", "machine.topology: one of dragonfly, fat_tree, dragonfly_plus is required");
  const Int nics = node.integer("sockets") * node.integer("nics_per_socket");
  const std::string nic_text = "(sockets*nics_per_socket) = (" + str(node.integer("sockets")) + "*" +
                               str(node.integer("nics_per_socket")) + ")";
  Int capacity = 0;
  std::string capacity_text;
  std::string kind_path;
  if (t.has_dragonfly()) {
    const MessageCheck d(c, t.dragonfly(), "machine.topology.dragonfly");
    check_dragonfly(d);
    // Three int32 factors can overflow int64: their product in 128 bits.
    __extension__ using Wide = __int128;
    const Wide ports =
        Wide{d.integer("groups")} * d.integer("switches_per_group") * d.integer("endpoint_ports_per_switch");
    const Wide exact = ports / nics;
    capacity = static_cast<Int>(std::min<Wide>(exact, std::numeric_limits<Int>::max()));
    kind_path = d.path();
    capacity_text = "groups*switches_per_group*endpoint_ports_per_switch / " + nic_text + " = " +
                    str(d.integer("groups")) + "*" + str(d.integer("switches_per_group")) + "*" +
                    str(d.integer("endpoint_ports_per_switch")) + " / " + str(nics) + " = " +
                    (exact > capacity ? "more than " : "") + str(capacity);
  } else if (t.has_dragonfly_plus()) {
    const MessageCheck d(c, t.dragonfly_plus(), "machine.topology.dragonfly_plus");
    check_dragonfly_plus(d);
    // Whole nodes per leaf (a node's NICs share one leaf); three int32 factors: 128 bits.
    __extension__ using Wide = __int128;
    const Wide exact = Wide{d.integer("groups")} * d.integer("leaves_per_group") *
                       (d.integer("endpoint_ports_per_leaf") / nics);
    capacity = static_cast<Int>(std::min<Wide>(exact, std::numeric_limits<Int>::max()));
    kind_path = d.path();
    capacity_text = "groups*leaves_per_group*floor(endpoint_ports_per_leaf / " + nic_text +
                    ") = " + str(d.integer("groups")) + "*" + str(d.integer("leaves_per_group")) + "*floor(" +
                    str(d.integer("endpoint_ports_per_leaf")) + " / " + str(nics) +
                    ") = " + (exact > capacity ? "more than " : "") + str(capacity);
  } else {
    const MessageCheck f(c, t.fat_tree(), "machine.topology.fat_tree");
    check_fat_tree(f);
    capacity = f.integer("leaf_switches") * f.integer("endpoint_ports_per_leaf") / nics;
    kind_path = "machine.topology.fat_tree";
    capacity_text = "leaf_switches*endpoint_ports_per_leaf / " + nic_text + " = " +
                    str(f.integer("leaf_switches")) + "*" + str(f.integer("endpoint_ports_per_leaf")) +
                    " / " + str(nics) + " = " + str(capacity);
  }
  if (capacity < 1)
    c.fail(kind_path, kind_path + ": the endpoint ports cannot hold one node: " + capacity_text);
  if (capacity > INT_MAX) c.fail(kind_path, kind_path + ": more nodes than an int holds: " + capacity_text);
  topo.at_least("nodes", 1);
  if (topo.has("nodes") && topo.integer("nodes") > capacity)
    topo.fail("nodes",
              "machine.topology.nodes = " + str(topo.integer("nodes")) +
                  " exceeds the nodes the endpoint ports hold: " + capacity_text,
              {"machine.topology.nodes"});
}

/// Every record name the kernel models can ask for ("gpu.gemm.fp64", ...),
/// generated by models::kernel_record_name so the list lives in one place.
const std::set<std::string>& known_kernel_records() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    const pb::EnumDescriptor* kernels = traces::Kernel_descriptor();
    const pb::EnumDescriptor* resources = traces::Resource_descriptor();
    const pb::EnumDescriptor* precisions = traces::Precision_descriptor();
    for (int k = 0; k < kernels->value_count(); ++k)
      for (int r = 0; r < resources->value_count(); ++r)
        for (int p = 0; p < precisions->value_count(); ++p)
          out.insert(models::kernel_record_name(
              {static_cast<traces::Kernel>(kernels->value(k)->number()),
               static_cast<traces::Resource>(resources->value(r)->number()),
               static_cast<traces::Precision>(precisions->value(p)->number()), 0, 0, 0}));
    return out;
  }();
  return names;
}

/// `prefix` is the calibration's path in its source ("machine.kernels." or "").
void check_kernels(const Checker& c, const models::KernelCalibration& cal, const std::string& prefix) {
  const MessageCheck top(c, cal, prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1));
  top.non_negative("rms_relative_residual");
  std::map<std::string, int> seen;
  for (int i = 0; i < cal.kernels_size(); ++i) {
    const models::KernelParams& k = cal.kernels(i);
    const MessageCheck r(c, k, prefix + "kernels[" + std::to_string(i) + "]");
    r.required("name");
    if (known_kernel_records().count(k.name()) == 0) {
      std::string known;
      for (const std::string& name : known_kernel_records())
        known += (known.empty() ? "" : ", ") + name;
      r.fail("name", r.path("name") + " \"" + k.name() + "\" is not a kernel record name; expected " +
                         "<cpu|gpu>.<kernel>.<precision>, one of: " + known);
    }
    if (const auto [it, inserted] = seen.emplace(k.name(), i); !inserted)
      r.fail("name",
             r.path("name") + " \"" + k.name() + "\" repeats kernels[" + std::to_string(it->second) + "]");
    r.positive("peak_flops_per_s");
    r.in_range("max_efficiency", 0.0, false, 1.0, true);
    r.non_negative("half_efficiency_size");
    r.non_negative("launch_overhead_s");
    r.positive("memory_bandwidth_bytes_per_s");
    r.non_negative("fitted_min_size");
    r.non_negative("fitted_max_size");
    // The kernel model owns which fields a kernel kind needs (compute-bound:
    // peak and max_efficiency; memory-bound: memory bandwidth).
    try {
      models::KernelModels::validate(k, r.path());
    } catch (const std::invalid_argument& e) {
      c.fail(r.path(), e.what());
    }
  }
}

/// `prefix` is the parameters' path in their source ("machine.protocol." or "").
void check_protocol(const Checker& c, const models::ProtocolParams& proto, const std::string& prefix) {
  const std::string path = prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1);
  const MessageCheck p(c, proto, path);
  p.non_negative("send_overhead_s");
  p.non_negative("recv_overhead_s");
  p.non_negative("send_overhead_per_byte_s");
  p.non_negative("recv_overhead_per_byte_s");
  p.non_negative("hop_latency_s");
  p.at_least("eager_threshold_bytes", 0);
  p.non_negative("rendezvous_extra_latency_s");
  p.positive("reference_path_latency_s");
  p.positive("reference_path_bandwidth_bytes_per_s");
  for (int i = 0; i < proto.segments_size(); ++i) {
    const MessageCheck s(c, proto.segments(i), prefix + "segments[" + std::to_string(i) + "]");
    s.at_least("min_bytes", 0, Need::Required);
    if (i == 0 && proto.segments(0).min_bytes() != 0)
      s.fail("min_bytes",
             s.path("min_bytes") + " must be 0 for the first segment, got " +
                 str(proto.segments(0).min_bytes()),
             {s.path("min_bytes")});
    if (i > 0 && proto.segments(i).min_bytes() <= proto.segments(i - 1).min_bytes())
      s.fail("min_bytes", s.path("min_bytes") + " = " + str(proto.segments(i).min_bytes()) +
                              " must exceed the previous segment's min_bytes = " +
                              str(proto.segments(i - 1).min_bytes()) + " (segments in increasing size)");
    s.non_negative("latency_factor");
    s.positive("bandwidth_factor");
    s.non_negative("extra_latency_s");
  }
  // The protocol model is the final authority on its parameters.
  try {
    models::ProtocolModel model(proto);
  } catch (const std::invalid_argument& e) {
    c.fail(path, prefix.empty() ? std::string(e.what()) : std::string("machine.") + e.what());
  }
}

void check_variability(const Checker& c, const models::VariabilityParams& var, const std::string& base_dir,
                       const std::string& prefix = "machine.variability") {
  const MessageCheck v(c, var, prefix);
  v.non_negative("node_rate_cv");
  v.non_negative("gpu_rate_cv");
  v.non_negative("kernel_jitter_cv");
  v.non_negative("node_gpu_step_cv");
  if (var.has_noise()) check_noise(c, var.noise(), base_dir, v.path("noise"));
  v.in_range("degraded_fraction", 0.0, true, 1.0, true);
  if (var.degraded_fraction() > 0.0)
    v.required("degraded_rate_factor", "with degraded_fraction > 0 (degraded_fraction = " +
                                           format_number(var.degraded_fraction()) + ")");
  v.in_range("degraded_rate_factor", 0.0, false, 1.0, true);
  if (v.has("node_rates_file")) {
    if (var.node_rate_cv() > 0.0 || var.degraded_fraction() > 0.0)
      v.fail("node_rates_file",
             v.path("node_rates_file") + " excludes node_rate_cv and degraded_fraction (the measured factors "
                                         "already contain both)",
             {v.path("node_rates_file"), v.path("node_rate_cv"), v.path("degraded_fraction")});
    const ScenarioFile file = find_scenario_file(base_dir, var.node_rates_file());
    if (!file.found)
      v.fail("node_rates_file", v.path("node_rates_file") + " \"" + var.node_rates_file() +
                                    "\": no such file; tried " + describe_tried(file));
    if (!std::ifstream(file.path))
      v.fail("node_rates_file", v.path("node_rates_file") + ": cannot open \"" + file.path + "\"");
  }
}

void check_hpl(const MessageCheck& h) {
  h.at_least("nbmin", 1);
  h.at_least("ndiv", 2);
  h.at_least("swap_threshold", 0);
}

void check_mxp(const MessageCheck& m) {
  m.at_least("gpus_per_rank", 1);
  // HPL-MxP caps iterative refinement at 50 iterations (rocHPL-MxP,
  // src/pgesv/hplmxp_iterative_refinement.cpp: maxits = 50); more cannot happen.
  m.in_range("refinement_iterations", 1, true, 50, true);
}

void check_workload(const Checker& c, const Workload& wl) {
  const MessageCheck w(c, wl, "workload");
  w.at_least("nodes", 1, Need::Required);
  w.at_least("ranks_per_node", 1, Need::Required);
  w.at_least("n", 1, Need::Required);
  w.at_least("nb", 1, Need::Required);
  w.at_least("p", 1, Need::Required);
  w.at_least("q", 1, Need::Required);
  if (wl.n() < wl.nb())
    c.fail("workload.nb", "workload: n = " + str(wl.n()) + " must be >= nb = " + str(wl.nb()),
           {"workload.n", "workload.nb"});
  if (wl.has_depth() && wl.depth() != 0 && wl.depth() != 1)
    w.fail("depth", "workload.depth must be 0 or 1, got " + str(wl.depth()), {"workload.depth"});
  const Int pq = Int{wl.p()} * wl.q();
  const Int ranks = Int{wl.nodes()} * wl.ranks_per_node();
  if (pq != ranks)
    c.report("workload",
             "workload: p*q = " + str(pq) + " must equal nodes*ranks_per_node = " + str(ranks) +
                 " (p = " + str(wl.p()) + ", q = " + str(wl.q()) + ", nodes = " + str(wl.nodes()) +
                 ", ranks_per_node = " + str(wl.ranks_per_node()) + ")",
             {"workload.p", "workload.q", "workload.nodes", "workload.ranks_per_node"});
  // WorkloadConfig::ranks() and every rank index are ints.
  if (pq > INT_MAX)
    c.fail("workload", "workload: p*q = " + str(pq) + " ranks exceeds " + str(INT_MAX),
           {"workload.p", "workload.q"});
  const std::string benchmark = Workload::Benchmark_Name(wl.benchmark());
  if (wl.has_hpl() && wl.benchmark() != Workload::HPL)
    c.fail("workload.hpl", "workload.hpl is only valid with benchmark HPL, got " + benchmark,
           {"workload.benchmark"});
  if (wl.has_mxp() && wl.benchmark() != Workload::HPL_MXP)
    c.fail("workload.mxp", "workload.mxp is only valid with benchmark HPL_MXP, got " + benchmark,
           {"workload.benchmark"});
  check_hpl(MessageCheck(c, wl.hpl(), "workload.hpl"));
  check_mxp(MessageCheck(c, wl.mxp(), "workload.mxp"));
}

/// Combinations across machine and workload, on the resolved values (defaults
/// filled). Each breach is reported, not thrown: the user sees all of them.
void check_fit(const Checker& c, const ResolvedScenario& r, const Scenario& s) {
  const NodeConfig& node = r.machine.node;
  const WorkloadConfig& w = r.workload;
  const TopologyConfig& t = r.machine.topology;
  if (w.nodes > t.nodes)
    c.report("workload.nodes",
             "workload.nodes = " + str(w.nodes) + " exceeds the machine's nodes = " + str(t.nodes) +
                 (s.machine().topology().has_nodes() ? " (machine.topology.nodes)"
                                                     : " (the topology's endpoint ports / NICs per node)"),
             {"workload.nodes", "machine.topology.nodes"});
  if (w.ranks_per_node > node.cores_per_node())
    c.report("workload.ranks_per_node",
             "workload.ranks_per_node = " + str(w.ranks_per_node) +
                 " exceeds the node's cores: sockets*cores_per_socket = " + str(node.sockets) + "*" +
                 str(node.cores_per_socket) + " = " + str(node.cores_per_node()),
             {"workload.ranks_per_node", "machine.node.sockets", "machine.node.cores_per_socket"});
  if (const int os_cores = r.machine.variability.noise().os_cores_per_node();
      os_cores > 0 && os_cores + Int{w.ranks_per_node} * w.panel_threads > node.cores_per_node())
    c.report(
        "machine.variability.noise.os_cores_per_node",
        "machine.variability.noise.os_cores_per_node + workload.ranks_per_node*panel_threads = " +
            str(os_cores) + " + " + str(w.ranks_per_node) + "*" + str(w.panel_threads) +
            " exceeds the node's cores = " + str(node.cores_per_node()) +
            ": the ranks' threads would run on the cores reserved for the OS",
        {"machine.variability.noise.os_cores_per_node", "workload.panel_threads", "workload.ranks_per_node"});
  if (node.gpus_per_node() > 0 && Int{w.ranks_per_node} * w.gpus_per_rank() > node.gpus_per_node())
    c.report("workload.ranks_per_node",
             "workload: ranks_per_node*gpus_per_rank = " + str(w.ranks_per_node) + "*" +
                 str(w.gpus_per_rank()) + " = " + str(Int{w.ranks_per_node} * w.gpus_per_rank()) +
                 " exceeds the node's GPUs: sockets*gpus_per_socket = " + str(node.sockets) + "*" +
                 str(node.gpus_per_socket) + " = " + str(node.gpus_per_node()),
             {"workload.ranks_per_node", "workload.mxp.gpus_per_rank", "machine.node.sockets",
              "machine.node.gpus_per_socket"});
  if (node.gpus_per_node() == 0 && r.workload.benchmark == Benchmark::Hpl && w.hpl.code &&
      traces::code_facts(static_cast<traces::HplCode>(*w.hpl.code)).needs_gpu)
    c.report("workload.hpl.code",
             std::string("workload.hpl.code = ") +
                 traces::code_facts(static_cast<traces::HplCode>(*w.hpl.code)).name +
                 " runs on GPUs, but machine.node.gpus_per_socket = 0",
             {"workload.hpl.code", "machine.node.gpus_per_socket"});
  if (node.gpus_per_node() == 0 && r.workload.benchmark == Benchmark::HplMxp && w.mxp.gpus_per_rank > 1)
    c.report("workload.mxp.gpus_per_rank",
             "workload.mxp.gpus_per_rank = " + str(w.mxp.gpus_per_rank) +
                 " needs GPUs, but machine.node.gpus_per_socket = 0",
             {"workload.mxp.gpus_per_rank", "machine.node.gpus_per_socket"});
  if (r.machine.placement.affinity == Affinity::Misplaced && node.sockets < 2)
    c.report("machine.placement.affinity",
             "machine.placement.affinity = MISPLACED needs machine.node.sockets >= 2, got " +
                 str(node.sockets),
             {"machine.placement.affinity", "machine.node.sockets"});
  const models::KernelCalibration& kernels = r.machine.kernels;
  if (kernels.has_amx() && kernels.amx() != node.amx)
    c.report(
        "machine.node.amx",
        std::string("machine.node.amx = ") + (node.amx ? "true" : "false") +
            (s.machine().node().has_amx() ? "" : " (default)") +
            " does not match the kernel calibration's amx = " + (kernels.amx() ? "true" : "false") +
            (r.machine.kernels_path.empty() ? " (machine.kernels.amx)" : " (" + r.machine.kernels_path + ")"),
        {"machine.node.amx"});
  // The variability model reads node_rates_file and checks it against the run's nodes.
  // Only then: its other checks are check_variability's, and it draws a factor for
  // every node and GPU (nodes x GPUs of them, not checked, only allocated), so no GPUs.
  if (!r.machine.variability.node_rates_file().empty()) {
    try {
      models::Variability variability(r.machine.variability, w.nodes, 0, r.options.seed, r.base_dir);
    } catch (const std::invalid_argument& e) {
      c.report("machine.variability", std::string("machine.") + e.what(),
               {"machine.variability.node_rates_file", "workload.nodes"});
    }
  }
}

/// machine.kernels or machine.kernels_file into loaded.kernels, validated.
void load_kernels(const Checker& c, LoadedScenario& loaded) {
  const Machine& m = loaded.scenario.machine();
  if (m.has_kernels() && m.has_kernels_file())
    c.fail("machine.kernels_file", "machine.kernels and machine.kernels_file are exclusive; give one",
           {"machine.kernels", "machine.kernels_file"});
  if (m.has_kernels()) {
    check_kernels(c, m.kernels(), "machine.kernels.");
    loaded.kernels = m.kernels();
    return;
  }
  if (!m.has_kernels_file()) return;
  pb::TextFormat::ParseInfoTree tree;
  const std::string file =
      read_machine_file(c, loaded, "kernels_file", m.kernels_file(), loaded.kernels, tree);
  check_kernels(Checker(SourceMap{file, models::KernelCalibration::descriptor(), &tree}, nullptr),
                loaded.kernels, "");
  loaded.kernels_path = file;
}

/// machine.variability_file (if any) with machine.variability over it into
/// loaded.variability; each part validated where it was written, then the merge.
void load_variability(const Checker& c, LoadedScenario& loaded) {
  const Machine& m = loaded.scenario.machine();
  check_variability(c, m.variability(), loaded.base_dir);
  if (m.variability().fit_targets_size() > 0)
    c.fail("machine.variability.fit_targets",
           "machine.variability.fit_targets: fitted values belong in a variability_file (so that "
           "--sourced-only can leave them out), not in the scenario");
  loaded.variability.Clear();
  if (m.has_variability_file()) {
    pb::TextFormat::ParseInfoTree tree;
    const std::string file =
        read_machine_file(c, loaded, "variability_file", m.variability_file(), loaded.variability, tree);
    const Checker in_file(SourceMap{file, models::VariabilityParams::descriptor(), &tree}, nullptr);
    if (loaded.variability.has_node_rates_file())
      in_file.fail("node_rates_file", file +
                                          ": node_rates_file belongs in the scenario's machine.variability, "
                                          "not in a variability_file (it names one allocation's nodes)");
    check_variability(in_file, loaded.variability, loaded.base_dir, "");
    loaded.variability_path = file;
    if (loaded.sourced_only && loaded.variability.fit_targets_size() > 0) {
      // The fitted parameters stay out of a sourced-only run.
      loaded.variability.Clear();
      loaded.variability_path.clear();
      loaded.left_out_fitted_path = file;
    }
  }
  loaded.variability.MergeFrom(m.variability());
  if (!loaded.variability_path.empty()) check_variability(c, loaded.variability, loaded.base_dir);
  // The models read node_rates_file relative to the scenario: one found under
  // the data root is handed on as the absolute path it was found at.
  if (loaded.variability.has_node_rates_file()) {
    const ScenarioFile file = find_scenario_file(loaded.base_dir, loaded.variability.node_rates_file());
    if (file.path != file.tried.front())
      loaded.variability.set_node_rates_file(
          std::filesystem::absolute(file.path).lexically_normal().string());
  }
}

/// machine.protocol_file, with machine.protocol's fields over it, or
/// machine.protocol alone, into loaded.protocol, validated. Inline segments
/// replace the file's (a segment list is one piecewise function).
void load_protocol(const Checker& c, LoadedScenario& loaded) {
  const Machine& m = loaded.scenario.machine();
  if (!m.has_protocol_file()) {
    check_protocol(c, m.protocol(), "machine.protocol.");
    loaded.protocol = m.protocol();
    return;
  }
  pb::TextFormat::ParseInfoTree tree;
  const std::string file =
      read_machine_file(c, loaded, "protocol_file", m.protocol_file(), loaded.protocol, tree);
  check_protocol(Checker(SourceMap{file, models::ProtocolParams::descriptor(), &tree}, nullptr),
                 loaded.protocol, "");
  loaded.protocol_path = file;
  if (!m.has_protocol()) return;
  check_protocol(c, m.protocol(), "machine.protocol.");
  if (m.protocol().segments_size() > 0) loaded.protocol.clear_segments();
  loaded.protocol.MergeFrom(m.protocol());
  check_protocol(c, loaded.protocol, "machine.protocol."); // the combination, e.g. a source left stale
}

} // namespace

void validate_scenario(LoadedScenario& loaded, const pb::TextFormat::ParseInfoTree& tree,
                       const OverrideLog& overrides) {
  const Checker c(SourceMap{loaded.path, Scenario::descriptor(), &tree}, &overrides);
  const Scenario& s = loaded.scenario;
  check_required_fields(c, s);
  const MessageCheck top(c, s, "");
  top.required("machine");
  top.required("workload");
  const Machine& m = s.machine();
  const MessageCheck machine(c, m, "machine");
  machine.required("topology");
  machine.required("node");
  const MessageCheck node(c, m.node(), "machine.node");
  check_node(node, m.node());
  check_topology(c, m.topology(), node);
  load_kernels(c, loaded);
  load_protocol(c, loaded);
  load_variability(c, loaded);
  load_mpi(c, loaded);
  check_workload(c, s.workload());
  const MessageCheck wl(c, s.workload(), "workload");
  wl.at_least("panel_threads", 1);
  const MessageCheck nd(c, s.machine().node(), "machine.node");
  nd.in_range("panel_serial_fraction", 0.0, true, 1.0, true);
  const MessageCheck placement(c, s.machine().placement(), "machine.placement");
  placement.non_negative("gpu_aware_overhead_s");
  placement.positive("gpu_aware_bandwidth_bytes_per_s");
  const MessageCheck fast(c, s.options().fast(), "options.fast");
  fast.at_least("fold_nodes", 1);
  fast.at_least("fold_above_ranks", 1);
  fast.at_least("warmup_steps", 0);
  fast.at_least("measured_steps", 1);
  fast.at_least("initial_windows", 0);
  fast.in_range("tolerance", 0.0, false, 1.0, false);
  fast.at_least("max_windows", 1);
  fast.at_least("pivot_group", 1);
  fast.at_least("swap_roll_group", 1);
  fast.at_least("workers", 0);
  fast.at_least("refinement_iterations", 0);
  fast.in_range("target_sampling_error", 0.0, true, 1.0, false);
  fast.non_negative("min_saving_s");
  if (const std::int64_t g = fast.integer("swap_roll_group");
      fast.has("swap_roll_group") && g > 1 && g % 2 != 0)
    fast.fail("swap_roll_group",
              fast.path("swap_roll_group") + " must be 1 or even, got " + std::to_string(g));
  // The analytic mode is HPL's closed form (sim/run/analytic.cpp): it would
  // price HPL-MxP's low-precision factorization at FP64 rates and leave out its
  // refinement, an answer off by a factor, so it refuses rather than guesses.
  if (s.options().mode() == Options::ANALYTIC && s.workload().benchmark() == Workload::HPL_MXP)
    c.fail("options.mode",
           "options.mode: the analytic mode has HPL's closed form only, not HPL-MxP's; use reference, fast "
           "or auto",
           {"workload.benchmark"});
  // Its closed form prices the panel on the CPU cores: a code that factors it
  // on the GPU (docs/codes/) would be priced as another code.
  if (s.options().mode() == Options::ANALYTIC && s.workload().benchmark() == Workload::HPL &&
      (s.workload().hpl().code() == Hpl::ROCHPL_7 || s.workload().hpl().code() == Hpl::NVIDIA))
    c.fail("options.mode",
           "options.mode: the analytic mode prices a CPU panel, and workload.hpl.code factors the panel on "
           "the GPU; use reference, fast or auto",
           {"workload.hpl.code"});
  // Nor does it have system noise (docs/noise.md): a closed form of the
  // quiet machine would drop the sources without a word.
  if (s.options().mode() == Options::ANALYTIC && loaded.variability.noise().sources_size() > 0)
    c.fail("options.mode",
           "options.mode: the analytic mode has no system noise, and machine.variability.noise has " +
               std::to_string(loaded.variability.noise().sources_size()) +
               " source(s); use reference, fast or auto",
           {"machine.variability.noise"});
  const ResolvedScenario resolved = resolve(loaded);
  if (fast.has("panel_collective") && s.options().fast().panel_collective() && !updates_on_gpus(resolved))
    fast.fail("panel_collective",
              fast.path("panel_collective") +
                  " needs the updates on GPUs (the panel's CPU core must be free of them): " +
                  (resolved.machine.node.gpus_per_node() == 0
                       ? std::string("the node has none")
                       : std::string("netlib HPL 2.3 (workload.hpl.code) runs on the CPU")));
  check_fit(c, resolved, s);
  check_node_placement(c, resolved);
  // With other combinations broken, the memory rule is listed with them; alone,
  // `run` applies it after loading (check_memory_fits), so that --dry-run, plan
  // and sweep can still show a configuration that does not fit.
  if (c.has_reports()) {
    std::optional<std::string> refusal;
    try {
      refusal = memory_refusal(resolved);
    } catch (const std::exception&) {
      // The memory model refuses inputs the reported problems make meaningless.
    }
    if (refusal) c.report("workload.n", *refusal, {"workload.n", "workload.nb"});
  }
  c.throw_reported();
  check_faults(c, s, resolved, loaded.base_dir);
  if (s.has_reference()) {
    const MessageCheck ref(c, s.reference(), "reference");
    ref.required("id");
    ref.required("rmax_flops_per_s");
    ref.required("source");
    ref.positive("rmax_flops_per_s");
  }
}

} // namespace hplsim::sim::detail
