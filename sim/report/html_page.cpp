#include "sim/report/html_page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "sim/report/svg_text.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim::html {

namespace {

// HTML text and attribute values escape the same characters as SVG's (& < > ").
using svg::escape;

/// Nested keys joined by dots; arrays stay whole.
void flatten(const Json& j, const std::string& prefix, std::vector<std::pair<std::string, Json>>& out) {
  for (const auto& [key, v] : j.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (v.is_object())
      flatten(v, name, out);
    else
      out.emplace_back(name, v);
  }
}

/// A number with at most 6 significant digits, the shortest such text.
std::string display_number(double x) {
  if (!std::isfinite(x)) return std::isnan(x) ? "n/a" : (x > 0 ? "inf" : "-inf");
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

Json rounded(const Json& v) {
  if (v.is_number_float()) {
    const double x = v.get<double>();
    return std::isfinite(x) ? Json(std::strtod(display_number(x).c_str(), nullptr)) : Json(nullptr);
  }
  if (v.is_number_integer() && std::llabs(v.get<long long>()) >= 1000000)
    return Json(std::strtod(display_number(v.get<double>()).c_str(), nullptr));
  if (v.is_array() || v.is_object()) {
    Json out = v;
    for (auto& [key, item] : out.items())
      item = rounded(item);
    return out;
  }
  return v;
}

} // namespace

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

std::optional<std::size_t> Csv::column(const std::string& name) const {
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? std::nullopt : std::optional<std::size_t>(it - header.begin());
}

std::string Csv::cell(std::size_t row, const std::string& name) const {
  const auto c = column(name);
  return c ? rows.at(row).at(*c) : std::string();
}

std::optional<double> Csv::number(std::size_t row, const std::string& name) const {
  const std::string text = cell(row, name);
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0')
    throw InputError(path.string() + ": row " + std::to_string(row + 2) + ": " + name + " \"" + text +
                     "\" is not a number");
  return v;
}

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
  csv.path = path;
  csv.header = records.front();
  csv.rows.assign(records.begin() + 1, records.end());
  for (std::size_t i = 0; i < csv.rows.size(); ++i)
    if (csv.rows[i].size() != csv.header.size())
      throw InputError(path.string() + ": row " + std::to_string(i + 2) + " has " +
                       std::to_string(csv.rows[i].size()) + " fields, the header " +
                       std::to_string(csv.header.size()));
  return csv;
}

std::string display_value(const Json& v) {
  if (v.is_null()) return "-";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return display_number(v.get<double>());
  if (v.is_number_integer() && std::llabs(v.get<long long>()) >= 1000000)
    return display_number(v.get<double>());
  return rounded(v).dump();
}

std::optional<double> number_at(const Json& j, const std::string& key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
  return j[key].get<double>();
}

Page::Page(std::string title, std::string subtitle)
    : title_(std::move(title)), subtitle_(std::move(subtitle)) {}

void Page::section(const std::string& id, const std::string& heading) {
  body_ << "<section id=\"" << id << "\">\n<h2>" << escape(heading) << "</h2>\n";
}

void Page::end_section() {
  body_ << "</section>\n";
}

void Page::heading3(const std::string& text) {
  body_ << "<h3>" << escape(text) << "</h3>\n";
}

void Page::paragraph(const std::string& text, const char* cls) {
  body_ << "<p" << (cls ? std::string(" class=\"") + cls + "\"" : "") << ">" << escape(text) << "</p>\n";
}

void Page::cards(const std::vector<Card>& cards) {
  body_ << "<div class=\"cards\">\n";
  for (const Card& c : cards)
    body_ << "<div class=\"card" << (c.cls ? std::string(" ") + c.cls : "") << "\"><div class=\"v\">"
          << escape(c.value) << "</div><div class=\"k\">" << escape(c.label) << "</div>"
          << (c.note.empty() ? "" : "<div class=\"n\">" + escape(c.note) + "</div>") << "</div>\n";
  body_ << "</div>\n";
}

void Page::figure(const fs::path& svg_path, const std::string& caption) {
  const auto svg = read_if_present(svg_path);
  if (!svg) return;
  const auto start = svg->find("<svg");
  if (start == std::string::npos) throw InputError(svg_path.string() + ": not an SVG document");
  figure_text(svg->substr(start), caption + " (" + svg_path.filename().string() + ")");
}

void Page::figure_text(const std::string& svg, const std::string& caption) {
  body_ << "<figure>\n" << svg << "<figcaption>" << escape(caption) << "</figcaption>\n</figure>\n";
}

void Page::table(const Table& t, const std::string& whole) {
  body_ << "<div class=\"scroll\"><table class=\"rows\">\n<tr>";
  for (std::size_t c = 0; c < t.header.size(); ++c)
    body_ << "<th" << (c < t.numeric.size() && t.numeric[c] ? " class=\"num\"" : "") << ">"
          << escape(t.header[c]) << "</th>";
  body_ << "</tr>\n";
  for (std::size_t r = 0; r < std::min(t.rows.size(), kMaxTableRows); ++r) {
    const std::string cls = r < t.row_class.size() ? t.row_class[r] : "";
    body_ << "<tr" << (cls.empty() ? "" : " class=\"" + cls + "\"") << ">";
    for (std::size_t c = 0; c < t.rows[r].size(); ++c)
      body_ << "<td" << (c < t.numeric.size() && t.numeric[c] ? " class=\"num\"" : "") << ">"
            << escape(t.rows[r][c]) << "</td>";
    body_ << "</tr>\n";
  }
  body_ << "</table></div>\n";
  // A "-" cell says no value; the table says what that means once.
  bool dash = false;
  for (const auto& row : t.rows)
    dash = dash || std::find(row.begin(), row.end(), "-") != row.end();
  if (dash)
    paragraph(
        "\u201c-\u201d: no value in that row (the point was not simulated, its run did not complete, or "
        "the figure does not apply to it).",
        "note");
  if (t.rows.size() > kMaxTableRows)
    paragraph("The first " + std::to_string(kMaxTableRows) + " of " + std::to_string(t.rows.size()) +
                  " rows" + (whole.empty() ? "." : "; all are in " + whole + "."),
              "note");
}

void Page::raw_json(const std::string& summary, const Json& j, const std::string& scope) {
  std::vector<std::pair<std::string, Json>> rows;
  flatten(j, "", rows);
  body_ << "<details><summary>" << escape(summary)
        << "</summary>\n<div class=\"scroll\"><table class=\"keys\">\n";
  for (const auto& [key, v] : rows)
    body_ << "<tr><th>" << escape(key) << "</th><td data-key=\"" << escape(scope + key) << "\" data-value=\""
          << escape(v.is_string() ? v.get<std::string>() : v.dump()) << "\">" << escape(display_value(v))
          << "</td></tr>\n";
  body_ << "</table></div>\n</details>\n";
}

std::string Page::text() const {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" << escape(title_)
      << "</title>\n<style>\n"
      << "*{box-sizing:border-box}h1,p,figcaption,summary,.card{overflow-wrap:anywhere}\n"
      << "body{font-family:sans-serif;max-width:1100px;margin:0 auto;padding:1em 2em;color:#222}\n"
      << "h1{font-size:1.5em;margin-bottom:.2em}.sub{color:#555;margin-top:0}\n"
      << "h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}"
         "h3{font-size:1em;margin-top:1.5em}\n"
      << ".cards{display:flex;flex-wrap:wrap;gap:.8em;margin:1em 0}.card{border:1px solid #ccc;"
         "border-radius:6px;padding:.5em .9em;min-width:9em;max-width:100%}.card .v{font-size:1.3em;"
         "font-weight:bold}.card .k{color:#555;font-size:.85em}.card .n{color:#777;font-size:.75em}\n"
      << ".card.bad{border-color:#CC0000;background:#fff3f3}.card.bad .v{color:#CC0000}\n"
      << "table{border-collapse:collapse;font-size:.85em;margin:.5em 0}th,td{border:1px solid #ddd;"
         "padding:.2em .5em;text-align:left}th{background:#f6f6f6}table.rows "
         "td{white-space:nowrap}table.rows td.num,table.rows th{white-space:normal;min-width:4em}"
         ".num{text-align:right;font-variant-numeric:tabular-nums}\n"
      << ".scroll{overflow-x:auto;max-width:100%;max-height:32em;overflow-y:auto}figure{margin:1em 0}"
         "figure svg{max-width:100%;height:auto}figcaption{color:#555;font-size:.85em}\n"
      << "details{margin:1.5em 0}summary{cursor:pointer;color:#444}\n"
      << ".note{color:#666;font-size:.85em}.noise{color:#888}.failed{color:#CC0000}\n"
      << "</style>\n</head>\n<body>\n<h1>" << escape(title_) << "</h1>\n"
      << (subtitle_.empty() ? "" : "<p class=\"sub\">" + escape(subtitle_) + "</p>\n") << body_.str()
      << "</body>\n</html>\n";
  return out.str();
}

} // namespace hplsim::sim::html
