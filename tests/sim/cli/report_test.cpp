// hplsim report (docs/studies.md, "The report"): the page of a real run and of
// a sweep, opened in headless Chromium (Debian's chromium): it renders (the
// screenshot is not blank), logs no console message, and its DOM carries every
// value of summary.json. Without Chromium the test is skipped, except where
// HPLSIM_REQUIRE_CHROMIUM is set (.ci/run sets it), where it fails.
#include <cstdlib>
#include <filesystem>
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
    const std::string text = v.is_string() ? v.get<std::string>() : v.dump(); // text nodes keep their quotes
    EXPECT_NE(dom.find("data-key=\"" + name + "\">" + text + "</td>"), std::string::npos)
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
  EXPECT_NE(dom.out.find("class=\"rows ranking\""), std::string::npos);
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

} // namespace
} // namespace hplsim::sim::testing
