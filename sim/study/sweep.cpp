#include "sim/study/sweep.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/report/format.hpp"
#include "sim/report/heatmap_svg.hpp"
#include "sim/report/sweep_plot_svg.hpp"
#include "sim/report/units.hpp"
#include "sim/scenario/grid_rule.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep))
    out.push_back(part);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

template <typename T> T whole(const std::string& flag, const std::string& v) {
  T out{};
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || end != v.data() + v.size() || out < 1)
    throw InputError(flag + ": \"" + v + "\" is not a whole number >= 1");
  return out;
}

// HPL.dat's codes and names for the variants, to the scenario's enum names
// (netlib HPL 2.3, testing/ptest/HPL.dat: "PFACTs (0=left, 1=Crout, 2=Right)",
// "BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)", "SWAP (0=bin-exch,1=long,2=mix)").
const std::map<std::string, std::map<std::string, std::string>>& variant_names() {
  static const std::map<std::string, std::map<std::string, std::string>> names = {
      {"pfact",
       {{"0", "LEFT"},
        {"left", "LEFT"},
        {"1", "CROUT"},
        {"crout", "CROUT"},
        {"2", "RIGHT"},
        {"right", "RIGHT"}}},
      {"bcast",
       {{"0", "ONE_RING"},
        {"1rg", "ONE_RING"},
        {"1ring", "ONE_RING"},
        {"1", "ONE_RING_M"},
        {"1rm", "ONE_RING_M"},
        {"1ringm", "ONE_RING_M"},
        {"2", "TWO_RING"},
        {"2rg", "TWO_RING"},
        {"2ring", "TWO_RING"},
        {"3", "TWO_RING_M"},
        {"2rm", "TWO_RING_M"},
        {"2ringm", "TWO_RING_M"},
        {"4", "BLONG"},
        {"lng", "BLONG"},
        {"long", "BLONG"},
        {"5", "BLONG_M"},
        {"lnm", "BLONG_M"},
        {"longm", "BLONG_M"}}},
      {"swap",
       {{"0", "BINARY_EXCHANGE"},
        {"bin-exch", "BINARY_EXCHANGE"},
        {"binary-exchange", "BINARY_EXCHANGE"},
        {"1", "SPREAD_ROLL"},
        {"long", "SPREAD_ROLL"},
        {"spread-roll", "SPREAD_ROLL"},
        {"2", "MIX"},
        {"mix", "MIX"}}},
  };
  return names;
}

const std::vector<std::string>& hpl_names() {
  static const std::vector<std::string> names = {"N",     "NB",   "PxQ",   "depth", "nodes", "ppn",
                                                 "bcast", "swap", "pfact", "nbmin", "ndiv"};
  return names;
}

std::vector<std::pair<int, int>> grids_of(int ranks, const GridRange& r) {
  std::vector<std::pair<int, int>> out;
  for (int p = 1; p * p <= ranks; ++p)
    if (ranks % p == 0) {
      const double ratio = double(p) / double(ranks / p);
      if (ratio >= r.lo - 1e-12 && ratio <= r.hi + 1e-12) out.emplace_back(p, ranks / p);
    }
  return out;
}

std::string number(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void flatten(const nlohmann::ordered_json& j, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& out) {
  for (const auto& [key, v] : j.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (v.is_object())
      flatten(v, name, out);
    else if (v.is_null())
      out.emplace_back(name, "");
    else if (v.is_string())
      out.emplace_back(name, v.get<std::string>());
    else if (v.is_number_float())
      out.emplace_back(name, number(v.get<double>()));
    else
      out.emplace_back(name, v.dump());
  }
}

std::string label_of(const SweepResult& r) {
  std::string s;
  for (const auto& [k, v] : r.values)
    s += (s.empty() ? "" : " ") + k + "=" + v;
  return s.empty() ? "the scenario" : s;
}

} // namespace

void apply_hpl_value(const std::string& name, const std::string& value, ScenarioOverrides& o) {
  const std::string flag = "--vary " + name + "=" + value;
  if (name == "N") {
    o.n = whole<long long>(flag, value);
  } else if (name == "NB") {
    o.nb = whole<long long>(flag, value);
  } else if (name == "PxQ") {
    const auto x = lower(value).find('x');
    if (x == std::string::npos) throw InputError(flag + ": expected PxQ as AxB, e.g. 162x342");
    o.p = whole<int>(flag, value.substr(0, x));
    o.q = whole<int>(flag, value.substr(x + 1));
  } else if (name == "depth") {
    if (value != "0" && value != "1") throw InputError(flag + ": depth is 0 or 1");
    o.depth = value == "1" ? 1 : 0;
  } else if (name == "nodes") {
    o.nodes = whole<int>(flag, value);
  } else if (name == "ppn") {
    o.ppn = whole<int>(flag, value);
  } else if (name == "nbmin" || name == "ndiv") {
    whole<int>(flag, value);
    o.set.push_back("workload.hpl." + name + "=" + value);
  } else if (const auto it = variant_names().find(name); it != variant_names().end()) {
    const auto v = it->second.find(lower(value));
    if (v == it->second.end()) {
      std::string known;
      for (const auto& [k, e] : it->second)
        known += (known.empty() ? "" : ", ") + k;
      throw InputError(flag + ": not a " + name + " (HPL.dat's codes or names: " + known + ")");
    }
    o.set.push_back("workload.hpl." + name + "=" + v->second);
  } else {
    o.set.push_back(name + "=" + value); // a field path: --set's own errors name it
  }
}

Vary parse_vary(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw InputError("--vary " + text +
                     ": expected NAME=v1,v2,... (NAME: N, NB, PxQ, depth, nodes, ppn, bcast, "
                     "swap, pfact, nbmin, ndiv, or a field path such as workload.hpl.swap_threshold)");
  Vary v;
  const std::string given = text.substr(0, eq);
  for (const std::string& n : hpl_names())
    if (lower(n) == lower(given) || (n == "PxQ" && (lower(given) == "p*q" || lower(given) == "grid")))
      v.name = n;
  if (v.name.empty()) {
    if (given.find('.') == std::string::npos)
      throw InputError("--vary " + text + ": unknown name \"" + given +
                       "\" (HPL names: N, NB, PxQ, depth, nodes, ppn, bcast, swap, pfact, nbmin, ndiv; or a "
                       "scenario field path with dots)");
    v.name = given;
  }
  v.values = split(text.substr(eq + 1), ',');
  for (const std::string& value : v.values)
    if (value.empty()) throw InputError("--vary " + text + ": an empty value");
  return v;
}

GridRange parse_grids(const std::string& text) {
  GridRange r;
  if (text == "auto") return r;
  const std::string bad =
      "--grids " + text + ": expected auto or auto:LO-HI with 0 < LO <= HI <= 1 (P/Q, P <= Q)";
  if (text.rfind("auto:", 0) != 0) throw InputError(bad);
  const std::string range = text.substr(5);
  const auto dash = range.find('-');
  if (dash == std::string::npos) throw InputError(bad);
  try {
    std::size_t used_lo = 0, used_hi = 0;
    r.lo = std::stod(range.substr(0, dash), &used_lo);
    r.hi = std::stod(range.substr(dash + 1), &used_hi);
    if (used_lo != dash || used_hi != range.size() - dash - 1) throw InputError(bad);
  } catch (const std::logic_error&) {
    throw InputError(bad);
  }
  if (!(r.lo > 0.0 && r.lo <= r.hi && r.hi <= 1.0)) throw InputError(bad);
  return r;
}

std::vector<SweepPoint> sweep_points(const ResolvedScenario& base, const ScenarioOverrides& base_overrides,
                                     const std::vector<Vary>& varies, const std::optional<GridRange>& grids,
                                     bool fixed_n) {
  for (std::size_t i = 0; i < varies.size(); ++i)
    for (std::size_t j = i + 1; j < varies.size(); ++j)
      if (varies[i].name == varies[j].name) throw InputError("--vary " + varies[i].name + ": given twice");
  const bool pxq_varied =
      std::any_of(varies.begin(), varies.end(), [](const Vary& v) { return v.name == "PxQ"; });
  if (grids && pxq_varied) throw InputError("--grids auto and --vary PxQ: give one or the other");
  // The cross product, the last --vary fastest.
  std::vector<std::vector<std::pair<std::string, std::string>>> combos = {{}};
  for (const Vary& v : varies) {
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    for (const auto& c : combos)
      for (const std::string& value : v.values) {
        auto with = c;
        with.emplace_back(v.name, value);
        next.push_back(std::move(with));
      }
    combos = std::move(next);
  }
  const WorkloadConfig& w0 = base.workload;
  std::vector<SweepPoint> points;
  for (const auto& combo : combos) {
    ScenarioOverrides o = base_overrides;
    bool sized = false, n_given = false;
    for (const auto& [name, value] : combo) {
      apply_hpl_value(name, value, o);
      sized = sized || name == "nodes" || name == "ppn" || name == "NB";
      n_given = n_given || name == "N";
    }
    const int nodes = o.nodes.value_or(w0.nodes), ppn = o.ppn.value_or(w0.ranks_per_node);
    const std::int64_t nb = o.nb.value_or(w0.nb);
    int ranks = nodes * ppn;
    std::vector<std::pair<int, int>> pq;
    if (grids) {
      pq = grids_of(ranks, *grids);
      if (pq.empty())
        throw InputError("--grids auto:" + number(grids->lo) + "-" + number(grids->hi) + ": no P x Q of " +
                         std::to_string(ranks) + " ranks has P <= Q and P/Q in that range");
    } else if (!pxq_varied && (o.nodes || o.ppn)) {
      // The rule `run --nodes` applies (sim/scenario/grid_rule.hpp): where the ranks factor badly,
      // a node or a few idle for a squarer grid.
      WorkloadConfig w = w0;
      w.ranks_per_node = ppn;
      w.nb = nb;
      const Rederived r = rederive_for_nodes(w, nodes);
      if (r.active_nodes != nodes) o.nodes = r.active_nodes;
      ranks = r.p * r.q;
      pq.emplace_back(r.p, r.q);
    } else {
      pq.emplace_back(o.p.value_or(w0.p), o.q.value_or(w0.q));
    }
    for (const auto& [p, q] : pq) {
      SweepPoint pt;
      pt.values = combo;
      pt.overrides = o;
      pt.overrides.p = p;
      pt.overrides.q = q;
      if (grids) pt.values.emplace_back("PxQ", std::to_string(p) + "x" + std::to_string(q));
      if (sized && !n_given && !fixed_n) {
        pt.overrides.n = same_memory_per_rank_n(w0, ranks, nb);
        pt.n_rederived = true;
      } else if (sized && !n_given) {
        pt.overrides.n = w0.n; // --fixed-N: the scenario's N, given, so that --nodes does not re-derive it
      }
      points.push_back(std::move(pt));
    }
  }
  return points;
}

std::vector<Ranked> rank_points(const std::vector<SweepResult>& results) {
  std::vector<Ranked> out;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto j = nlohmann::json::parse(results[i].summary_json);
    Ranked r;
    r.index = i;
    r.rmax_flops_per_s = j.value("completed", false) ? j["rmax_flops_per_s"].get<double>() : 0.0;
    if (!j["rmax_sampling_error_fraction"].is_null())
      r.sampling_error = j["rmax_sampling_error_fraction"].get<double>();
    out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Ranked& a, const Ranked& b) { return a.rmax_flops_per_s > b.rmax_flops_per_s; });
  if (out.empty()) return out;
  const Ranked& best = out.front();
  const double eb = std::max(0.0, best.sampling_error) * best.rmax_flops_per_s;
  for (Ranked& r : out) {
    const double ei = std::max(0.0, r.sampling_error) * r.rmax_flops_per_s;
    const double gap = best.rmax_flops_per_s - r.rmax_flops_per_s;
    r.below_best_fraction = best.rmax_flops_per_s > 0 ? gap / best.rmax_flops_per_s : 0.0;
    r.beyond_noise = gap > 2.0 * std::sqrt(eb * eb + ei * ei);
  }
  return out;
}

void write_sweep_csv(const std::vector<SweepResult>& results, const std::vector<Ranked>& ranking,
                     const std::string& path) {
  std::vector<std::size_t> rank_of(results.size());
  for (std::size_t r = 0; r < ranking.size(); ++r)
    rank_of[ranking[r].index] = r + 1;
  std::vector<std::string> columns;
  std::vector<std::map<std::string, std::string>> rows;
  for (const SweepResult& res : results) {
    std::vector<std::pair<std::string, std::string>> cells = res.values;
    std::vector<std::pair<std::string, std::string>> summary;
    flatten(nlohmann::ordered_json::parse(res.summary_json), "", summary);
    cells.insert(cells.end(), summary.begin(), summary.end());
    std::map<std::string, std::string> row;
    for (const auto& [k, v] : cells) {
      if (std::find(columns.begin(), columns.end(), k) == columns.end()) columns.push_back(k);
      row.emplace(k, v);
    }
    rows.push_back(std::move(row));
  }
  write_file_atomically(path, [&](std::ostream& out) {
    for (const std::string& c : columns)
      out << csv_field(c) << ',';
    out << "rank,below_best_fraction,beyond_sampling_error\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (const std::string& c : columns) {
        const auto it = rows[i].find(c);
        out << (it == rows[i].end() ? "" : csv_field(it->second)) << ',';
      }
      const Ranked& r = ranking[rank_of[i] - 1];
      out << rank_of[i] << ',' << number(r.below_best_fraction) << ',' << (r.beyond_noise ? "true" : "false")
          << '\n';
    }
  });
}

void write_sweep_svg(const std::vector<SweepResult>& results, const std::vector<Ranked>& ranking,
                     const std::string& path) {
  SweepPlot plot;
  plot.title = "Rmax of the sweep's " + std::to_string(results.size()) + " points";
  if (!results.empty())
    for (const auto& [name, value] : results.front().values)
      plot.names.push_back(name);
  for (const Ranked& r : ranking) {
    SweepPlotPoint p;
    for (const auto& [name, value] : results[r.index].values)
      p.values.push_back(value);
    p.rmax_flops_per_s = r.rmax_flops_per_s;
    p.sampling_error = r.sampling_error;
    plot.points.push_back(std::move(p));
  }
  const std::string svg = sweep_plot_svg(plot);
  write_file_atomically(path, [&svg](std::ostream& out) { out << svg; });
}

bool write_sweep_heatmap_svg(const std::vector<SweepResult>& results, const std::vector<Ranked>& ranking,
                             const std::string& path) {
  if (results.empty() || results.front().values.size() != 2) return false;
  const bool pxq_second = results.front().values[1].first == "PxQ";
  const std::size_t row_at = pxq_second ? 1 : 0, column_at = 1 - row_at;
  Heatmap map;
  map.row_label = results.front().values[row_at].first;
  map.column_label = results.front().values[column_at].first;
  const auto index_of = [](std::vector<std::string>& labels, const std::string& v) {
    const auto it = std::find(labels.begin(), labels.end(), v);
    if (it != labels.end()) return static_cast<std::size_t>(it - labels.begin());
    labels.push_back(v);
    return labels.size() - 1;
  };
  for (const SweepResult& r : results) {
    index_of(map.rows, r.values[row_at].second);
    index_of(map.columns, r.values[column_at].second);
  }
  const double top = ranking.empty() ? 0.0 : ranking.front().rmax_flops_per_s;
  const Unit unit = rate_unit(top);
  map.title = "Rmax over " + map.row_label + " and " + map.column_label;
  map.unit = std::string("Rmax in ") + unit.name;
  map.values.assign(map.rows.size(), std::vector<double>(map.columns.size(), std::nan("")));
  map.near_best.assign(map.rows.size(), std::vector<bool>(map.columns.size(), false));
  for (std::size_t k = 0; k < ranking.size(); ++k) {
    const Ranked& r = ranking[k];
    const SweepResult& res = results[r.index];
    const std::size_t row = index_of(map.rows, res.values[row_at].second);
    const std::size_t col = index_of(map.columns, res.values[column_at].second);
    if (r.rmax_flops_per_s > 0) map.values[row][col] = r.rmax_flops_per_s / unit.scale;
    if (k == 0)
      map.best = std::make_pair(row, col);
    else
      map.near_best[row][col] = !r.beyond_noise;
  }
  write_heatmap_svg(map, path);
  return true;
}

void print_ranking(const std::vector<SweepResult>& results, const std::vector<Ranked>& ranking,
                   std::ostream& out) {
  std::size_t width = 5;
  for (const SweepResult& r : results)
    width = std::max(width, label_of(r).size());
  // Every row in the unit of the best point.
  const Unit unit = rate_unit(ranking.empty() ? 0.0 : ranking.front().rmax_flops_per_s);
  const bool any_error =
      std::any_of(ranking.begin(), ranking.end(), [](const Ranked& r) { return r.sampling_error >= 0; });
  const bool any_rederived =
      std::any_of(results.begin(), results.end(), [](const SweepResult& r) { return r.n_rederived; });
  out << std::left << std::setw(6) << "rank" << std::setw(static_cast<int>(width) + 2) << "point"
      << std::right << std::setw(12) << "N" << std::setw(14) << (std::string("Rmax ") + unit.name)
      << std::setw(10) << "err %" << std::setw(12) << "vs best"
      << "  difference\n";
  for (std::size_t k = 0; k < ranking.size(); ++k) {
    const Ranked& r = ranking[k];
    const SweepResult& res = results[r.index];
    const auto summary = nlohmann::json::parse(res.summary_json);
    const std::string n = std::to_string(summary.value("n", std::int64_t{0})) + (res.n_rederived ? "*" : " ");
    const std::string err = r.sampling_error >= 0 ? format_sig(100 * r.sampling_error, 3) : "-";
    const char* verdict = k == 0           ? ""
                          : !any_error     ? "no sampling error in this mode"
                          : r.beyond_noise ? "significant: beyond twice the sampling error"
                                           : "not significant: within twice the sampling error";
    out << std::left << std::setw(6) << k + 1 << std::setw(static_cast<int>(width) + 2) << label_of(res)
        << std::right << std::setw(12) << n << std::setw(14) << format_sig(r.rmax_flops_per_s / unit.scale, 4)
        << std::setw(10) << err << std::setw(12)
        << (k == 0 ? "best" : format_percent_change(-r.below_best_fraction, 2)) << "  " << verdict << "\n";
  }
  if (any_rederived)
    out << "* N re-derived for the point by the rule above (the scenario's matrix memory per rank); "
           "--fixed-N "
           "holds the scenario's N\n";
}

} // namespace hplsim::sim
