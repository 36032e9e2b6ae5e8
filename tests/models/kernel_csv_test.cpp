// Kernel timing CSV: reading, writing, and errors that name file, line and column.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "models/kernel_csv.hpp"

namespace hm = hplsim::models;

namespace {

std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    hm::read_kernel_csv(in, "t.csv");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(KernelCsv, ReadsRowsSkippingComments) {
  std::istringstream in("# measured by hand\nkernel,m,n,k,seconds\n\ncpu.gemm.fp64, 64,64,64,1.5e-05\n"
                        "# mid-file comment\ngpu.laswp.bf16,384,100,0,2e-6\r\n");
  const auto rows = hm::read_kernel_csv(in, "t.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].kernel, "cpu.gemm.fp64");
  EXPECT_EQ(rows[0].m, 64);
  EXPECT_DOUBLE_EQ(rows[0].seconds, 1.5e-5);
  EXPECT_EQ(rows[0].line, 4);
  EXPECT_EQ(rows[1].kernel, "gpu.laswp.bf16");
  EXPECT_DOUBLE_EQ(rows[1].seconds, 2e-6);
}

TEST(KernelCsv, RoundTripsThroughWriter) {
  std::ostringstream out;
  hm::write_kernel_csv_header(out);
  hm::write_kernel_csv_row(out, {"cpu.trsm.fp64", 128, 4096, 0, 1.234567e-3, 0});
  std::istringstream in(out.str());
  const auto rows = hm::read_kernel_csv(in, "t.csv");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].n, 4096);
  EXPECT_NEAR(rows[0].seconds, 1.234567e-3, 5e-9); // 6 significant digits: 1.23457e-3, half a unit = 5e-9
}

TEST(KernelCsv, RejectsWrongHeader) {
  const std::string e = error_of("kernel,m,n,seconds\ncpu.gemm.fp64,1,1,1\n");
  EXPECT_NE(e.find("t.csv:1:"), std::string::npos) << e;
  EXPECT_NE(e.find("header"), std::string::npos) << e;
}

TEST(KernelCsv, RejectsEmptyFile) {
  EXPECT_NE(error_of("# nothing\n").find("missing"), std::string::npos);
}

TEST(KernelCsv, RejectsWrongColumnCount) {
  const std::string e = error_of("kernel,m,n,k,seconds\ncpu.gemm.fp64,1,1,1\n");
  EXPECT_NE(e.find("t.csv:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("5 columns"), std::string::npos) << e;
}

TEST(KernelCsv, RejectsNonIntegerDimension) {
  const std::string e = error_of("kernel,m,n,k,seconds\ncpu.gemm.fp64,1,x2,1,1e-3\n");
  EXPECT_NE(e.find("t.csv:2: column 'n'"), std::string::npos) << e;
}

TEST(KernelCsv, RejectsNegativeDimension) {
  const std::string e = error_of("kernel,m,n,k,seconds\ncpu.gemm.fp64,1,1,-4,1e-3\n");
  EXPECT_NE(e.find("t.csv:2: column 'k'"), std::string::npos) << e;
}

TEST(KernelCsv, RejectsNonPositiveSeconds) {
  const std::string e = error_of("kernel,m,n,k,seconds\ncpu.gemm.fp64,1,1,1,0\n");
  EXPECT_NE(e.find("t.csv:2: column 'seconds'"), std::string::npos) << e;
  EXPECT_NE(error_of("kernel,m,n,k,seconds\ncpu.gemm.fp64,1,1,1,abc\n").find("column 'seconds'"),
            std::string::npos);
}

TEST(KernelCsv, RejectsUnknownRecordName) {
  const std::string e = error_of("kernel,m,n,k,seconds\n\ncpu.gemmm.fp64,1,1,1,1e-3\n");
  EXPECT_NE(e.find("t.csv:3: column 'kernel'"), std::string::npos) << e;
}

TEST(KernelCsv, MissingFileIsRuntimeError) {
  EXPECT_THROW(hm::read_kernel_csv("/nonexistent/dir/x.csv"), std::runtime_error);
}
