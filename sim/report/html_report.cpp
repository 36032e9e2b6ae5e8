#include "sim/report/html_report.hpp"

#include <cmath>
#include <filesystem>

#include "sim/report/format.hpp"
#include "sim/report/html_sections.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace html {

namespace {

const char* const kPhases[] = {"pfact", "bcast", "swap", "trsm", "gemm", "solve"};

std::string text_at(const Json& j, const std::string& key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

std::string count_at(const Json& j, const std::string& key) {
  const auto v = number_at(j, key);
  return v ? format_count(std::llround(*v)) : "-";
}

std::string percent(double fraction) {
  return format_sig(100.0 * fraction, 3) + " %";
}

/// The faults.csv row of event `id` (nullopt when absent).
std::optional<std::size_t> fault_row(const Csv& faults, long long id) {
  for (std::size_t r = 0; r < faults.rows.size(); ++r)
    if (faults.cell(r, "id") == std::to_string(id)) return r;
  return std::nullopt;
}

std::vector<Card> completed_cards(const Json& s) {
  std::vector<Card> cards;
  if (const auto r = number_at(s, "rmax_flops_per_s"))
    cards.push_back({"Rmax", format_rate(*r),
                     number_at(s, "rmax_sampling_error_fraction")
                         ? "sampling error \u00b1" + percent(*number_at(s, "rmax_sampling_error_fraction"))
                         : ""});
  if (const auto t = number_at(s, "time_s")) cards.push_back({"run time", format_duration(*t, 4), ""});
  // The published figure the scenario names, and what the difference means:
  // a fit target agrees by construction, anything else is a prediction.
  if (const Json ref = s.value("reference", Json()); ref.is_object()) {
    const auto published = number_at(ref, "rmax_flops_per_s");
    const auto difference = number_at(ref, "difference_fraction");
    const bool fit_target = ref.value("fit_target", false);
    if (published && !ref.value("comparable", true))
      cards.push_back({"vs published " + format_rate(*published), "no comparison",
                       "reference run: " + ref.value("reference_run", std::string()) +
                           "; this run differs (" + ref.value("this_run", std::string()) + ")"});
    else if (published && difference)
      cards.push_back({"vs published " + format_rate(*published), format_percent_change(*difference),
                       fit_target ? "by construction: the calibration was fitted to it"
                                  : "a prediction: nothing in effect was fitted to it"});
  }
  // System noise in effect (docs/noise.md): how many sources of each scope.
  if (const Json noise = s.value("noise", Json()); noise.is_object() && noise.contains("sources")) {
    int per_core = 0, per_node = 0;
    for (const Json& src : noise.at("sources"))
      (src.value("scope", std::string()) == "NODE" ? per_node : per_core) += 1;
    const int n = per_core + per_node;
    cards.push_back({"system noise", std::to_string(n) + (n == 1 ? " source" : " sources"),
                     std::to_string(per_core) + " per core, " + std::to_string(per_node) + " per node"});
  }
  if (const auto k = number_at(s, "crossover_step")) {
    const auto f = number_at(s, "crossover_fraction");
    cards.push_back({"crossover", "step " + format_count(std::llround(*k)),
                     f ? "at " + format_sig(*f, 3) + " of N" : ""});
  }
  if (const auto r = number_at(s, "refinement_s"))
    cards.push_back(
        {"refinement", format_duration(*r, 3), count_at(s, "refinement_iterations") + " iterations"});
  return cards;
}

/// What ended a run that did not complete: the failure, when, and the work lost.
std::vector<Card> failure_cards(const fs::path& dir, const Json& s) {
  std::vector<Card> cards;
  const std::string failure = text_at(s, "failure");
  cards.push_back({"outcome", "did not complete", failure, "bad"});
  const Json faults = s.value("faults", Json());
  std::optional<double> when = number_at(s, "time_s");
  std::string what;
  if (faults.is_object() && faults.contains("ended_by") && faults["ended_by"].is_number()) {
    const long long id = faults["ended_by"].get<long long>();
    what = "event F" + std::to_string(id);
    if (const auto text = read_if_present(dir / "faults.csv")) {
      const Csv csv = parse_csv(dir / "faults.csv", *text);
      if (const auto row = fault_row(csv, id)) {
        what = csv.cell(*row, "kind") + " of " + csv.cell(*row, "target") + " (F" + std::to_string(id) + ")";
        if (const auto at = csv.number(*row, "start_s")) when = at;
      }
    }
  }
  if (when) cards.push_back({"ended at", format_duration(*when, 4), "simulated time", "bad"});
  if (!what.empty()) cards.push_back({"ended by", what, "", "bad"});
  if (const auto lost = number_at(faults, "lost_work_s"))
    cards.push_back({"work lost", format_duration(*lost, 3), "no checkpoint"});
  if (const auto t = number_at(faults, "fault_free_time_s"))
    cards.push_back({"the run without faults", format_duration(*t, 4),
                     number_at(faults, "fault_free_rmax_flops_per_s")
                         ? "Rmax " + format_rate(*number_at(faults, "fault_free_rmax_flops_per_s"))
                         : ""});
  return cards;
}

std::vector<Card> shape_cards(const Json& s) {
  std::vector<Card> cards;
  cards.push_back(
      {"N, NB", count_at(s, "n") + ", " + count_at(s, "nb"), count_at(s, "steps") + " panel steps"});
  cards.push_back({"P x Q", count_at(s, "p") + " x " + count_at(s, "q"), "depth " + count_at(s, "depth")});
  cards.push_back({"nodes", count_at(s, "nodes"), count_at(s, "ranks") + " ranks"});
  if (s.contains("fits_in_memory") && s["fits_in_memory"].is_boolean() && !s["fits_in_memory"].get<bool>())
    cards.push_back({"memory", "does not fit", "simulated anyway, as asked", "bad"});
  return cards;
}

void phase_table(Page& page, const Json& s) {
  const Json slow = s.value("phase_totals_s", Json()), mean = s.value("phase_mean_totals_s", Json());
  if (!slow.is_object()) return;
  double slow_sum = 0, mean_sum = 0;
  for (const char* p : kPhases)
    slow_sum += number_at(slow, p).value_or(0), mean_sum += number_at(mean, p).value_or(0);
  Table t{{"phase", "slowest rank", "share", "rank mean", "share"}, {false, true, true, true, true}, {}, {}};
  for (const char* p : kPhases) {
    const auto a = number_at(slow, p), b = number_at(mean, p);
    if (!a && !b) continue;
    t.rows.push_back({p, a ? format_duration(*a, 4) : "-", a && slow_sum > 0 ? percent(*a / slow_sum) : "-",
                      b ? format_duration(*b, 4) : "-", b && mean_sum > 0 ? percent(*b / mean_sum) : "-"});
  }
  page.heading3("Phase totals (summed over the steps; phases overlap)");
  page.table(t);
  const Json runs = s.value("dominant_phases", Json());
  if (runs.is_array() && !runs.empty()) {
    std::string text = "Largest phase per step (rank mean): ";
    for (std::size_t i = 0; i < runs.size() && i < 8; ++i)
      text += (i ? ", " : "") + text_at(runs[i], "phase") + " steps " + count_at(runs[i], "first_step") +
              "-" + count_at(runs[i], "last_step");
    if (runs.size() > 8) text += ", and " + std::to_string(runs.size() - 8) + " more runs";
    page.paragraph(text + ".");
  }
}

/// A positive count to 3 significant digits (174,380 -> 174,000).
long long round_to_3_digits(double x) {
  if (!(x >= 100.0)) return std::llround(x);
  const double unit = std::pow(10.0, std::floor(std::log10(x)) - 2);
  return std::llround(std::round(x / unit) * unit);
}

void cost_table(Page& page, const Json& stats) {
  Table t{
      {"wall time", "activities", "activities per second", "peak memory"}, {true, true, true, true}, {}, {}};
  const auto wall = number_at(stats, "wall_s"), rate = number_at(stats, "activities_per_s");
  const auto rss = number_at(stats, "peak_rss_bound_bytes") ? number_at(stats, "peak_rss_bound_bytes")
                                                            : number_at(stats, "peak_rss_bytes");
  t.rows.push_back({wall ? format_duration(*wall, 3) : "-", count_at(stats, "activities"),
                    rate ? format_count(round_to_3_digits(*rate)) : "-", rss ? format_bytes(*rss) : "-"});
  page.heading3("The simulation's own cost");
  page.table(t);
}

} // namespace

void run_sections(Page& page, const fs::path& dir, const Json& s) {
  const bool completed =
      !(s.contains("completed") && s["completed"].is_boolean() && !s["completed"].get<bool>());
  page.section("run", completed ? "The run" : "The run: did not complete");
  std::vector<Card> cards = completed ? completed_cards(s) : failure_cards(dir, s);
  for (Card& c : shape_cards(s))
    cards.push_back(std::move(c));
  page.cards(cards);
  if (const std::string note = text_at(s, "prescreen"); !note.empty()) page.paragraph(note, "note");
  page.figure(dir / "phases.svg", completed
                                      ? "Per-step phase times and rate against the matrix fraction"
                                      : "Per-step phase times and rate of the steps before the run ended");
  phase_table(page, s);
  std::optional<Json> stats;
  if (const auto text = read_if_present(dir / "stats.json")) {
    stats = parse_json(dir / "stats.json", *text);
    cost_table(page, *stats);
  }
  page.raw_json("Every value of summary.json", s, "");
  if (stats) page.raw_json("Every value of stats.json", *stats, "stats.");
  page.end_section();
}

void faults_section(Page& page, const fs::path& dir, const Json& summary) {
  const auto text = read_if_present(dir / "faults.csv");
  if (!text) return;
  const Csv csv = parse_csv(dir / "faults.csv", *text);
  page.section("faults", "Faults");
  const Json f = summary.value("faults", Json());
  if (f.is_object()) {
    std::vector<Card> cards = {
        {"events reached", count_at(f, "reached") + " of " + count_at(f, "events"), ""},
        {"messages failed", count_at(f, "messages_failed"), count_at(f, "retries") + " retries"}};
    if (const auto w = number_at(f, "retry_wait_s"))
      cards.push_back({"retry waits", format_duration(*w, 3), ""});
    if (const auto d = number_at(f, "delay_s")) cards.push_back({"time added", format_duration(*d, 3), ""});
    page.cards(cards);
  }
  page.paragraph(
      "Each fault event of the run: when it struck, what it touched and what it cost (docs/faults.md). "
      "The markers F<id> on the phase plot are these events.");
  Table t{{"event", "kind", "target", "at", "for", "reached", "steps", "messages failed", "retries",
           "retry wait", "time added", "ended the run"},
          {false, false, false, true, true, false, true, true, true, true, true, false},
          {},
          {}};
  const auto time_cell = [&](std::size_t r, const char* key) {
    const auto v = csv.number(r, key);
    return v ? format_duration(*v, 4) : std::string("-");
  };
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const bool ended = csv.cell(r, "ended_run") == "true";
    t.rows.push_back({"F" + csv.cell(r, "id"), csv.cell(r, "kind"), csv.cell(r, "target"),
                      time_cell(r, "start_s"), time_cell(r, "duration_s"),
                      csv.cell(r, "reached") == "true" ? "yes" : "no (after the end)", csv.cell(r, "steps"),
                      csv.cell(r, "messages_failed"), csv.cell(r, "retries"), time_cell(r, "retry_wait_s"),
                      time_cell(r, "delay_s"), ended ? "yes" : ""});
    t.row_class.push_back(ended ? "failed" : "");
  }
  page.table(t, "faults.csv");
  page.end_section();
}

} // namespace html

namespace {

using html::Json;
namespace fs = std::filesystem;

/// Which kinds of output the directory holds, in the page's order.
struct Found {
  std::optional<Json> about, summary, outcome;
  std::optional<html::Csv> sweep, plan, sensitivity, noise_bench;
  bool faults = false;
};

std::string kind_of(const Found& f) {
  if (f.about && f.about->contains("kind") && (*f.about)["kind"].is_string()) return (*f.about)["kind"];
  if (f.outcome) return "trials";
  if (f.sweep) return "sweep";
  if (f.plan) return "plan";
  if (f.sensitivity) return "sensitivity";
  if (f.noise_bench) return "noise-bench";
  return "run";
}

std::string subtitle_of(const Found& f, const std::string& kind) {
  const Json about = f.about.value_or(Json::object());
  const Json& facts = f.summary ? *f.summary : f.outcome ? *f.outcome : about;
  std::vector<std::string> parts;
  if (kind == "run")
    parts.push_back(f.faults ? "One run with faults" : "One run");
  else if (kind == "trials")
    parts.push_back((facts.contains("trials") ? facts["trials"].dump() + " " : std::string()) + "trials");
  else if (kind == "sweep")
    parts.push_back("A sweep of " + std::to_string(f.sweep ? f.sweep->rows.size() : 0) + " points");
  else if (kind == "plan")
    parts.push_back("A capacity plan");
  else if (kind == "sensitivity")
    parts.push_back("A sensitivity study of the flap process");
  else if (kind == "noise-bench")
    parts.push_back("A noise microbenchmark");
  if (const std::string name = about.value("scenario", ""); !name.empty())
    parts.push_back("scenario " + name);
  if (!about.value("source", "").empty() || (kind != "run" && kind != "trials"))
    if (const std::string d = about.value("description", ""); !d.empty()) parts.push_back("machine: " + d);
  std::string mode = about.value("mode", "");
  if (mode.empty() && facts.contains("mode") && facts["mode"].is_string()) mode = facts["mode"];
  if (!mode.empty()) parts.push_back(mode + " mode");
  const Json& seeded = about.contains("seed") ? about : facts;
  if (seeded.contains("seed") && seeded["seed"].is_number()) parts.push_back("seed " + seeded["seed"].dump());
  std::string s;
  for (const std::string& p : parts)
    s += (s.empty() ? "" : " \u00b7 ") + p;
  return s;
}

/// The scenario's description; a sweep of an HPL.dat's points: the file on the scenario.
std::string title_of(const Found& f, const std::string& kind, const fs::path& dir) {
  const Json about = f.about.value_or(Json::object());
  if (const std::string source = about.value("source", ""); !source.empty())
    return source + " on " + about.value("scenario", "the scenario's machine");
  // A study is titled by what it is, of which scenario; the description
  // (a single run's) is in the subtitle's "machine".
  const std::string scenario = about.value("scenario", "");
  if (!scenario.empty()) {
    if (kind == "sweep") return "Sweep of " + scenario;
    if (kind == "plan") return "Capacity plan of " + scenario;
    if (kind == "sensitivity") return "Sensitivity study of " + scenario;
    if (kind == "noise-bench") return "Noise benchmark on " + scenario;
  }
  for (const char* key : {"description", "scenario"})
    if (const std::string t = about.value(key, ""); !t.empty()) return t;
  return "hplsim " + kind + ": " + fs::weakly_canonical(dir).filename().string();
}

} // namespace

std::string html_report(const std::string& dir_name) {
  const fs::path dir(dir_name);
  if (!fs::is_directory(dir)) throw InputError(dir_name + ": not a directory");
  Found f;
  const auto json_file = [&](const char* name) -> std::optional<Json> {
    const auto text = html::read_if_present(dir / name);
    if (!text) return std::nullopt;
    Json j = html::parse_json(dir / name, *text);
    if (!j.is_object()) throw InputError((dir / name).string() + ": not a JSON object");
    return j;
  };
  const auto csv_file = [&](const char* name) -> std::optional<html::Csv> {
    const auto text = html::read_if_present(dir / name);
    return text ? std::optional<html::Csv>(html::parse_csv(dir / name, *text)) : std::nullopt;
  };
  f.about = json_file("about.json");
  f.summary = json_file("summary.json");
  f.outcome = json_file("outcome.json");
  f.sweep = csv_file("sweep.csv");
  f.plan = csv_file("plan.csv");
  f.sensitivity = csv_file("sensitivity.csv");
  f.noise_bench = csv_file("iterations.csv");
  f.faults = fs::exists(dir / "faults.csv");
  if (!f.summary && !f.outcome && !f.sweep && !f.plan && !f.sensitivity && !f.noise_bench && !f.faults)
    throw InputError(dir_name + ": no hplsim output here (summary.json, faults.csv, outcome.json, sweep.csv, "
                                "plan.csv, sensitivity.csv or iterations.csv)");
  const std::string kind = kind_of(f);
  html::Page page(title_of(f, kind, dir), subtitle_of(f, kind));
  if (f.summary) html::run_sections(page, dir, *f.summary);
  if (f.faults) html::faults_section(page, dir, f.summary.value_or(Json::object()));
  if (f.outcome) html::trials_section(page, dir, *f.outcome);
  if (f.sweep) html::sweep_section(page, dir, *f.sweep);
  if (f.plan) html::plan_section(page, dir, *f.plan);
  if (f.sensitivity) html::sensitivity_section(page, dir, *f.sensitivity);
  if (f.noise_bench) html::noise_bench_section(page, dir, *f.noise_bench);
  return page.text();
}

void write_html_report(const std::string& dir, const std::string& path) {
  const std::string page = html_report(dir);
  write_file_atomically(path, [&page](std::ostream& out) { out << page; });
}

} // namespace hplsim::sim
