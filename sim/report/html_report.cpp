#include "sim/report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/svg_text.hpp"
#include "sim/report/units.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr std::size_t kMaxTableRows = 200; // longer CSV files are cut, and say so

// HTML text and attribute values escape the same characters as SVG's (& < > ").
using svg::escape;

std::optional<std::string> read_if_present(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Json parse_json(const fs::path& path, const std::string& text) {
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    throw InputError(path.string() + ": not JSON hplsim wrote (" + e.what() + ")");
  }
}

/// RFC 4180 CSV: a header row, then rows; quoted fields may hold commas, quotes and newlines.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::optional<std::size_t> column(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? std::nullopt : std::optional<std::size_t>(it - header.begin());
  }
};

Csv parse_csv(const fs::path& path, const std::string& text) {
  std::vector<std::vector<std::string>> records(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    std::string& field = records.back().back();
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        field += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      records.back().emplace_back();
    } else if (c == '\n') {
      records.emplace_back(1);
    } else if (c != '\r') {
      field += c;
    }
  }
  if (quoted) throw InputError(path.string() + ": a quoted field is not closed");
  while (!records.empty() && records.back().size() == 1 && records.back()[0].empty())
    records.pop_back();
  if (records.empty()) throw InputError(path.string() + ": empty");
  Csv csv;
  csv.header = records.front();
  csv.rows.assign(records.begin() + 1, records.end());
  return csv;
}

/// Scalars of a JSON object, nested keys joined by dots, arrays as their JSON text.
void flatten(const Json& j, const std::string& prefix, std::vector<std::pair<std::string, Json>>& out) {
  for (const auto& [key, v] : j.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (v.is_object())
      flatten(v, name, out);
    else
      out.emplace_back(name, v);
  }
}

std::string fixed(double v, int decimals) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(decimals) << v;
  return s.str();
}

std::string rate_text(double flops_per_s) {
  const Unit u = rate_unit(flops_per_s);
  return fixed(flops_per_s / u.scale, 4) + " " + u.name;
}

std::string time_text(double s) {
  const Unit u = time_unit(s);
  return fixed(s / u.scale, u.scale > 1 ? 3 : 4) + " " + u.name;
}

class Page {
public:
  explicit Page(std::string title) : title_(std::move(title)) {}

  void section(const std::string& id, const std::string& heading) {
    body_ << "<section id=\"" << id << "\">\n<h2>" << escape(heading) << "</h2>\n";
  }
  void end_section() { body_ << "</section>\n"; }
  void paragraph(const std::string& text, const char* cls = nullptr) {
    body_ << "<p" << (cls ? std::string(" class=\"") + cls + "\"" : "") << ">" << escape(text) << "</p>\n";
  }
  void raw(const std::string& markup) { body_ << markup; }

  /// An inlined SVG figure (hplsim's own files: no script, no external reference).
  void figure(const fs::path& svg_path, const std::string& caption) {
    const auto svg = read_if_present(svg_path);
    if (!svg) return;
    const auto start = svg->find("<svg");
    if (start == std::string::npos) throw InputError(svg_path.string() + ": not an SVG document");
    body_ << "<figure>\n"
          << svg->substr(start) << "<figcaption>" << escape(caption) << " ("
          << escape(svg_path.filename().string()) << ")</figcaption>\n</figure>\n";
  }

  /// Key-value rows of a JSON object; each value cell carries data-key (prefixed by `scope`).
  void json_table(const Json& j, const std::string& scope) {
    std::vector<std::pair<std::string, Json>> rows;
    flatten(j, "", rows);
    body_ << "<table class=\"keys\">\n";
    for (const auto& [key, v] : rows)
      body_ << "<tr><th>" << escape(key) << "</th><td data-key=\"" << escape(scope + key) << "\">"
            << escape(v.is_string() ? v.get<std::string>() : v.dump()) << "</td></tr>\n";
    body_ << "</table>\n";
  }

  void csv_table(const Csv& csv, const fs::path& path) {
    body_ << "<div class=\"scroll\"><table class=\"rows\">\n<tr>";
    for (const std::string& h : csv.header)
      body_ << "<th>" << escape(h) << "</th>";
    body_ << "</tr>\n";
    for (std::size_t i = 0; i < std::min(csv.rows.size(), kMaxTableRows); ++i) {
      body_ << "<tr>";
      for (const std::string& cell : csv.rows[i])
        body_ << "<td>" << escape(cell) << "</td>";
      body_ << "</tr>\n";
    }
    body_ << "</table></div>\n";
    if (csv.rows.size() > kMaxTableRows)
      paragraph("The first " + std::to_string(kMaxTableRows) + " of " + std::to_string(csv.rows.size()) +
                    " rows; all are in " + path.filename().string() + ".",
                "note");
  }

  std::string text() const {
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
        << escape(title_) << "</title>\n<style>\n"
        << "body{font-family:sans-serif;max-width:1100px;margin:0 auto;padding:1em 2em;color:#222}\n"
        << "h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid "
           "#ccc;padding-bottom:.2em;margin-top:2em}\n"
        << ".cards{display:flex;flex-wrap:wrap;gap:.8em}.card{border:1px solid #ccc;border-radius:6px;"
           "padding:.5em .9em;min-width:9em}.card .v{font-size:1.3em;font-weight:bold}.card .k{color:#666;"
           "font-size:.85em}\n"
        << "table{border-collapse:collapse;font-size:.85em;margin:.5em 0}th,td{border:1px solid #ddd;"
           "padding:.2em .5em;text-align:left}table.rows td{text-align:right;white-space:nowrap}\n"
        << ".scroll{overflow-x:auto;max-height:32em;overflow-y:auto}figure{margin:1em 0}"
           "figure svg{max-width:100%;height:auto}figcaption{color:#555;font-size:.85em}\n"
        << ".note{color:#666;font-size:.85em}.noise{color:#888}\n"
        << "</style>\n</head>\n<body>\n<h1>" << escape(title_) << "</h1>\n"
        << body_.str() << "</body>\n</html>\n";
    return out.str();
  }

private:
  std::string title_;
  std::ostringstream body_;
};

void card(std::ostringstream& out, const std::string& key, const std::string& value) {
  out << "<div class=\"card\"><div class=\"v\">" << escape(value) << "</div><div class=\"k\">" << escape(key)
      << "</div></div>\n";
}

void run_section(Page& page, const fs::path& dir, const Json& summary) {
  page.section("run", "The run");
  std::ostringstream cards;
  cards << "<div class=\"cards\">\n";
  const auto number = [&](const char* key) { return summary.value(key, Json()).is_number(); };
  if (number("rmax_flops_per_s")) card(cards, "Rmax", rate_text(summary["rmax_flops_per_s"].get<double>()));
  if (number("time_s")) card(cards, "run time", time_text(summary["time_s"].get<double>()));
  if (number("rmax_sampling_error_fraction"))
    card(cards, "sampling error (fast mode)",
         fixed(100 * summary["rmax_sampling_error_fraction"].get<double>(), 2) + " %");
  if (number("n") && number("nb"))
    card(cards, "N, NB",
         std::to_string(summary["n"].get<long long>()) + ", " +
             std::to_string(summary["nb"].get<long long>()));
  if (number("p") && number("q"))
    card(cards, "P x Q",
         std::to_string(summary["p"].get<long long>()) + " x " +
             std::to_string(summary["q"].get<long long>()));
  if (number("nodes")) card(cards, "nodes", std::to_string(summary["nodes"].get<long long>()));
  if (summary.contains("mode") && summary["mode"].is_string())
    card(cards, "mode", summary["mode"].get<std::string>());
  if (number("crossover_step"))
    card(cards, "crossover",
         "step " + std::to_string(summary["crossover_step"].get<long long>()) +
             (number("crossover_fraction")
                  ? " (" + fixed(summary["crossover_fraction"].get<double>(), 3) + ")"
                  : ""));
  if (summary.contains("completed") && summary["completed"].is_boolean())
    card(cards, "outcome", summary["completed"].get<bool>() ? "completed" : "did not complete");
  cards << "</div>\n";
  page.raw(cards.str());
  page.figure(dir / "phases.svg", "Per-step phase times and rate against the matrix fraction");
  page.raw("<h3>summary.json</h3>\n");
  page.json_table(summary, "");
  if (const auto stats = read_if_present(dir / "stats.json")) {
    page.raw("<h3>stats.json (the simulation's own cost)</h3>\n");
    page.json_table(parse_json(dir / "stats.json", *stats), "stats.");
  }
  page.end_section();
}

void sweep_section(Page& page, const fs::path& dir, const Csv& csv) {
  page.section("sweep", "Sweep");
  const auto first_summary = csv.column("benchmark");
  const auto rank = csv.column("rank"), rmax = csv.column("rmax_flops_per_s"),
             err = csv.column("rmax_sampling_error_fraction"), gap = csv.column("below_best_fraction"),
             beyond = csv.column("beyond_sampling_error");
  if (!first_summary || !rank || !rmax || !gap || !beyond)
    throw InputError((dir / "sweep.csv").string() + ": not the columns hplsim sweep writes");
  std::vector<std::pair<long long, const std::vector<std::string>*>> by_rank;
  for (std::size_t i = 0; i < csv.rows.size(); ++i) {
    const auto& row = csv.rows[i];
    if (row.size() != csv.header.size())
      throw InputError((dir / "sweep.csv").string() + ": row " + std::to_string(i + 2) + " has " +
                       std::to_string(row.size()) + " fields, the header " +
                       std::to_string(csv.header.size()));
    char* end = nullptr;
    const long long r = std::strtoll(row[*rank].c_str(), &end, 10);
    if (row[*rank].empty() || *end != '\0')
      throw InputError((dir / "sweep.csv").string() + ": row " + std::to_string(i + 2) + ": rank \"" +
                       row[*rank] + "\" is not a whole number");
    by_rank.emplace_back(r, &row);
  }
  std::stable_sort(by_rank.begin(), by_rank.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const std::vector<std::string>*> ranked;
  for (const auto& [r, row] : by_rank)
    ranked.push_back(row);
  double best = 0.0;
  if (!ranked.empty()) best = std::strtod((*ranked.front())[*rmax].c_str(), nullptr);
  const Unit unit = rate_unit(best);
  const bool any_error = err && std::any_of(ranked.begin(), ranked.end(),
                                            [&](const auto* row) { return !(*row)[*err].empty(); });
  std::ostringstream t;
  t << "<div class=\"scroll\"><table class=\"rows ranking\">\n<tr><th>rank</th>";
  for (std::size_t c = 0; c < *first_summary; ++c)
    t << "<th>" << escape(csv.header[c]) << "</th>";
  t << "<th>Rmax " << unit.name << "</th><th>sampling error %</th><th>vs best</th><th>difference</th></tr>\n";
  for (const auto* row : ranked) {
    const bool is_best = (*row)[*rank] == "1";
    const bool real = (*row)[*beyond] == "true";
    t << "<tr" << (is_best || real || !any_error ? "" : " class=\"noise\"") << "><td>"
      << escape((*row)[*rank]) << "</td>";
    for (std::size_t c = 0; c < *first_summary; ++c)
      t << "<td>" << escape((*row)[c]) << "</td>";
    const double r = std::strtod((*row)[*rmax].c_str(), nullptr);
    const std::string e = err ? (*row)[*err] : "";
    t << "<td>" << fixed(r / unit.scale, 4) << "</td><td>"
      << (e.empty() ? "-" : fixed(100 * std::strtod(e.c_str(), nullptr), 2)) << "</td><td>"
      << (is_best ? "best" : fixed(-100 * std::strtod((*row)[*gap].c_str(), nullptr), 2) + " %")
      << "</td><td>"
      << (is_best      ? ""
          : !any_error ? "no sampling error in this mode: the model's own difference"
          : real       ? "beyond twice the sampling error"
                       : "within twice the sampling error: noise, not a ranking")
      << "</td></tr>\n";
  }
  t << "</table></div>\n";
  page.raw(t.str());
  page.figure(dir / "sweep-heatmap.svg", "Rmax over the two varied parameters");
  page.figure(dir / "sweep.svg", "Rmax of each point with twice its sampling error");
  page.end_section();
}

} // namespace

std::string html_report(const std::string& dir_name) {
  const fs::path dir(dir_name);
  if (!fs::is_directory(dir)) throw InputError(dir_name + ": not a directory");
  Page page("hplsim report: " + fs::weakly_canonical(dir).filename().string());
  bool found = false;
  if (const auto text = read_if_present(dir / "summary.json")) {
    const Json summary = parse_json(dir / "summary.json", *text);
    if (!summary.is_object()) throw InputError((dir / "summary.json").string() + ": not a JSON object");
    run_section(page, dir, summary);
    found = true;
  }
  if (const auto text = read_if_present(dir / "faults.csv")) {
    page.section("faults", "Faults");
    page.paragraph("Each fault event of the run, when it happened, what it touched and what it cost "
                   "(docs/faults.md). The markers F<id> on the phase plot are these events.");
    page.csv_table(parse_csv(dir / "faults.csv", *text), dir / "faults.csv");
    page.end_section();
    found = true;
  }
  if (const auto text = read_if_present(dir / "outcome.json")) {
    page.section("trials", "Trials");
    page.json_table(parse_json(dir / "outcome.json", *text), "outcome.");
    if (const auto trials = read_if_present(dir / "trials.csv"))
      page.csv_table(parse_csv(dir / "trials.csv", *trials), dir / "trials.csv");
    page.end_section();
    found = true;
  }
  if (const auto text = read_if_present(dir / "sweep.csv")) {
    sweep_section(page, dir, parse_csv(dir / "sweep.csv", *text));
    found = true;
  }
  if (const auto text = read_if_present(dir / "plan.csv")) {
    page.section("plan", "Plan");
    page.figure(dir / "plan.svg", "The objectives against node count, with their intervals");
    page.csv_table(parse_csv(dir / "plan.csv", *text), dir / "plan.csv");
    page.end_section();
    found = true;
  }
  if (!found)
    throw InputError(
        dir_name + ": no hplsim output here (summary.json, faults.csv, outcome.json, sweep.csv or plan.csv)");
  return page.text();
}

void write_html_report(const std::string& dir, const std::string& path) {
  const std::string page = html_report(dir);
  write_file_atomically(path, [&page](std::ostream& out) { out << page; });
}

} // namespace hplsim::sim
