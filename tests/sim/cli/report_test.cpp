// hplsim report (docs/studies.md, "The report"): the page of a real run and of
// a sweep, opened in headless Chromium (Debian's chromium): it renders (the
// screenshot is not blank), logs no console message, and its DOM carries every
// value of summary.json. The page of every kind of output (a run, an aborted
// run, trials, the netlib sample's 288-point sweep, a plan) fits a 1,280 px
// window and prints no number with more than 6 significant digits. Without
// Chromium the Chromium tests are skipped, except where HPLSIM_REQUIRE_CHROMIUM
// is set (.ci/run sets it), where they fail.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <png.h>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

std::string chromium() {
  for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (fs::exists(path)) return path;
  return "";
}

#define REQUIRE_CHROMIUM()                                                                                   \
  if (chromium().empty()) {                                                                                  \
    if (std::getenv("HPLSIM_REQUIRE_CHROMIUM") != nullptr) FAIL() << "chromium is not installed";            \
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";                                  \
  }

std::vector<std::string> headless(const std::vector<std::string>& more) {
  std::vector<std::string> args = {"--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--disable-dev-shm-usage",
                                   "--hide-scrollbars",
                                   "--enable-logging=stderr",
                                   "--v=0"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The share of the screenshot's pixels that are not the page's white, and how
// many distinct colours it has.
struct Ink {
  double fraction = 0.0;
  std::size_t colours = 0;
};
Ink ink_of(const std::string& png_path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&image, png_path.c_str()) == 0) return {};
  image.format = PNG_FORMAT_RGB;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) == 0) return {};
  std::size_t inked = 0;
  std::set<unsigned> colours;
  for (std::size_t i = 0; i + 2 < pixels.size(); i += 3) {
    const unsigned rgb = pixels[i] << 16 | pixels[i + 1] << 8 | pixels[i + 2];
    if (rgb != 0xFFFFFF) ++inked;
    colours.insert(rgb);
  }
  return {double(inked) / double(pixels.size() / 3), colours.size()};
}

// Console messages Chromium logs with --enable-logging=stderr ("INFO:CONSOLE(...)").
std::string console_lines(const std::string& err) {
  std::string out;
  std::size_t at = 0;
  while ((at = err.find(":CONSOLE", at)) != std::string::npos) {
    const auto begin = err.rfind('\n', at) + 1;
    const auto end = err.find('\n', at);
    out += err.substr(begin, end - begin) + "\n";
    at = end;
  }
  return out;
}

// Every scalar of summary.json is in the page as data-key="KEY" with the JSON text of its value.
void expect_summary_in_dom(const std::string& dom, const nlohmann::ordered_json& j,
                           const std::string& prefix) {
  for (const auto& [key, v] : j.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (v.is_object()) {
      expect_summary_in_dom(dom, v, name);
      continue;
    }
    // The exact JSON text is the data-value attribute (the DOM serializes its quotes as &quot;).
    std::string text;
    for (const char c : v.is_string() ? v.get<std::string>() : v.dump())
      text += c == '"' ? std::string("&quot;") : c == '&' ? std::string("&amp;") : std::string(1, c);
    EXPECT_NE(dom.find("data-key=\"" + name + "\" data-value=\"" + text + "\">"), std::string::npos)
        << name << " = " << text;
  }
}

TEST(ReportCli, TheRunsPageRendersInChromiumWithEverySummaryValue) {
  REQUIRE_CHROMIUM();
  TempDir dir;
  const std::string out = (dir / "run").string();
  ASSERT_EQ(
      run_hplsim({"run", source_path("scenarios/small-dragonfly.textproto"), "--mode", "fast", "--out", out},
                 dir)
          .exit_code,
      0);
  const CliResult r = run_hplsim({"report", out}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = out + "/report.html";
  // Self-contained: the only URLs are the SVG namespace's, which nothing fetches.
  const std::string html = read_text(page);
  const auto count = [&html](const std::string& what) {
    std::size_t n = 0;
    for (auto at = html.find(what); at != std::string::npos; at = html.find(what, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count("http"), count("http://www.w3.org/2000/svg\""));
  EXPECT_EQ(count("src="), 0u);
  const std::string shot = (dir / "shot.png").string();
  const CliResult s = run_program(
      chromium(), headless({"--window-size=1280,1600", "--screenshot=" + shot, "file://" + page}), dir);
  ASSERT_TRUE(fs::exists(shot)) << s.err;
  EXPECT_EQ(console_lines(s.err), "");
  const Ink ink = ink_of(shot);
  // The cards, the phase plot's colours and the table: well over 2% of the pixels, tens of colours.
  EXPECT_GT(ink.fraction, 0.02) << shot;
  EXPECT_GT(ink.colours, 20u) << shot;
  const CliResult dom = run_program(chromium(), headless({"--dump-dom", "file://" + page}), dir);
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_EQ(console_lines(dom.err), "");
  expect_summary_in_dom(dom.out, nlohmann::ordered_json::parse(read_text(out + "/summary.json")), "");
  EXPECT_NE(dom.out.find("<svg"), std::string::npos); // the phase plot is inline
}

TEST(ReportCli, ASweepsPageRendersItsRankingAndHeatmap) {
  REQUIRE_CHROMIUM();
  TempDir dir;
  const std::string out = (dir / "sweep").string();
  ASSERT_EQ(run_hplsim({"sweep", source_path("scenarios/small-dragonfly.textproto"), "--vary", "NB=128,256",
                        "--grids", "auto:0.3-1", "--mode", "analytic", "--out", out},
                       dir)
                .exit_code,
            0);
  ASSERT_EQ(run_hplsim({"report", out, "--out", (dir / "page.html").string()}, dir).exit_code, 0);
  const std::string shot = (dir / "shot.png").string();
  const CliResult s = run_program(
      chromium(),
      headless({"--window-size=1280,1400", "--screenshot=" + shot, "file://" + (dir / "page.html").string()}),
      dir);
  EXPECT_EQ(console_lines(s.err), "");
  EXPECT_GT(ink_of(shot).fraction, 0.02) << shot;
  const CliResult dom =
      run_program(chromium(), headless({"--dump-dom", "file://" + (dir / "page.html").string()}), dir);
  EXPECT_NE(dom.out.find(">Ranking, best first<"), std::string::npos);
  EXPECT_NE(dom.out.find("class=\"cell best\""), std::string::npos); // the heatmap, inline
}

TEST(ReportCli, ADirectoryWithoutOutputsIsAnError) {
  TempDir dir;
  fs::create_directories(dir / "empty");
  const CliResult r = run_hplsim({"report", (dir / "empty").string()}, dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no hplsim output here"), std::string::npos) << r.err;
  const CliResult missing = run_hplsim({"report", (dir / "nowhere").string()}, dir);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("not a directory"), std::string::npos) << missing.err;
}

// One output directory of each kind, made once for the tests below (analytic
// mode and small scenarios: a few seconds in all).
class ReportKinds : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    scratch_ = new TempDir();
    const TempDir& d = *scratch_;
    const auto make = [&](const std::string& kind, std::vector<std::string> args) {
      const std::string out = (d / kind).string();
      args.insert(args.end(), {"--mode", "analytic", "--out", out});
      const CliResult r = run_hplsim(args, d);
      ASSERT_EQ(r.exit_code, 0) << kind << ": " << r.err;
      const CliResult page = run_hplsim({"report", out}, d);
      ASSERT_EQ(page.exit_code, 0) << kind << ": " << page.err;
      (*pages_)[kind] = out + "/report.html";
    };
    pages_ = new std::map<std::string, std::string>();
    make("run", {"run", source_path("scenarios/small-dragonfly.textproto")});
    make("aborted", {"run", source_path("scenarios/faults/small-dragonfly-node-failure.textproto")});
    make("trials",
         {"run", source_path("scenarios/faults/small-dragonfly-failures.textproto"), "--trials", "20"});
    make("sweep", {"sweep", source_path("scenarios/small-dragonfly.textproto"), "--hpl-dat",
                   source_path("scenarios/hpl-dat/netlib-hpl-2.3-sample.dat")});
    make("plan", {"plan", source_path("scenarios/faults/small-dragonfly-failures.textproto"), "--nodes",
                  "12,24,48", "--trials", "50", "--window-hours", "0.08"});
  }
  static void TearDownTestSuite() {
    delete pages_;
    delete scratch_;
  }
  static TempDir* scratch_;
  static std::map<std::string, std::string>* pages_;
};
TempDir* ReportKinds::scratch_ = nullptr;
std::map<std::string, std::string>* ReportKinds::pages_ = nullptr;

// The page's width at a 1,280 px window, as Chromium lays it out: a copy of the
// page with a script that writes document.documentElement.scrollWidth into the
// DOM, which --dump-dom prints.
double scroll_width(const std::string& page, const TempDir& dir) {
  std::string html = read_text(page);
  const auto body_end = html.rfind("</body>");
  if (body_end == std::string::npos) return NAN;
  html.insert(body_end, "<script>document.body.setAttribute('data-scroll-width', "
                        "String(document.documentElement.scrollWidth));</script>");
  const fs::path copy = fs::path(page).parent_path() / "measured.html";
  write_text(copy, html);
  const CliResult dom = run_program(
      chromium(), headless({"--window-size=1280,2000", "--dump-dom", "file://" + copy.string()}), dir);
  const std::smatch m = [&] {
    std::smatch found;
    std::regex_search(dom.out, found, std::regex("data-scroll-width=\"([0-9]+)\""));
    return found;
  }();
  return m.empty() ? NAN : std::stod(m[1]);
}

TEST_F(ReportKinds, EveryKindsPageFitsA1280PxWindow) {
  REQUIRE_CHROMIUM();
  TempDir dir;
  // The measurement sees an overflow: a page with a 1,600 px wide element measures wider than the window.
  write_text(dir / "wide.html",
             "<!DOCTYPE html><html><body><div style=\"width:1600px\">wide</div></body></html>\n");
  EXPECT_GT(scroll_width((dir / "wide.html").string(), dir), 1280.0);
  ASSERT_EQ(pages_->size(), 5u);
  for (const auto& [kind, page] : *pages_)
    EXPECT_LE(scroll_width(page, dir), 1280.0) << kind << ": " << page;
}

// The numbers a person reads on the page (its text outside tags, the style and
// attributes left out): each run of digits and points, its significant digits
// counted without leading zeros (and, for a whole number, trailing zeros).
std::vector<std::string> long_numbers(const std::string& html) {
  std::string text;
  const auto style_end = html.find("</style>");
  bool in_tag = false;
  for (std::size_t i = style_end == std::string::npos ? 0 : style_end + 8; i < html.size(); ++i) {
    if (html[i] == '<') in_tag = true;
    if (!in_tag) text += html[i];
    if (html[i] == '>') in_tag = false, text += ' ';
  }
  std::vector<std::string> found;
  const std::regex number("[0-9][0-9.]*");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it) {
    std::string digits;
    for (const char c : it->str())
      if (c != '.') digits += c;
    digits.erase(0, digits.find_first_not_of('0'));
    if (it->str().find('.') == std::string::npos) digits.erase(digits.find_last_not_of('0') + 1);
    if (digits.size() > 6) found.push_back(it->str());
  }
  return found;
}

TEST_F(ReportKinds, NoPageShowsANumberWithMoreThanSixSignificantDigits) {
  EXPECT_EQ(long_numbers("<p>1.234567 s</p>"), std::vector<std::string>{"1.234567"}); // the scan finds one
  EXPECT_TRUE(long_numbers("<p data-value=\"1.2345678\">1,228,800 and 0.000123456</p>").empty());
  ASSERT_EQ(pages_->size(), 5u);
  for (const auto& [kind, page] : *pages_) {
    const auto found = long_numbers(read_text(page));
    EXPECT_TRUE(found.empty()) << kind << ": " << found.size() << " numbers, the first " << found.front();
  }
}

TEST_F(ReportKinds, EachKindHasItsTitleAndFigures) {
  ASSERT_EQ(pages_->size(), 5u);
  const std::string run = read_text(pages_->at("run"));
  EXPECT_NE(run.find("<h1>48 Aurora-like nodes on a 6-group dragonfly"), std::string::npos);
  const std::string aborted = read_text(pages_->at("aborted"));
  EXPECT_NE(aborted.find("<h1>small-dragonfly with node 3 failing at 0.1 s</h1>"), std::string::npos);
  EXPECT_NE(aborted.find(">did not complete<"), std::string::npos);
  EXPECT_EQ(aborted.find(">crossover<"), std::string::npos);
  const std::string trials = read_text(pages_->at("trials"));
  EXPECT_NE(trials.find(">P(complete)<"), std::string::npos);
  EXPECT_NE(trials.find("class=\"ecdf\""), std::string::npos);
  const std::string sweep = read_text(pages_->at("sweep"));
  EXPECT_NE(sweep.find("<h1>netlib-hpl-2.3-sample.dat on small-dragonfly</h1>"), std::string::npos);
  EXPECT_NE(sweep.find("The best 15 of 288 points"), std::string::npos);
  EXPECT_EQ(sweep.find("sampling"), std::string::npos); // analytic mode: no sampling error to speak of
  const std::string plan = read_text(pages_->at("plan"));
  EXPECT_NE(plan.find(">best for the time to a result<"), std::string::npos);
}

} // namespace
} // namespace hplsim::sim::testing
