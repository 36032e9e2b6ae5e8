#include "traces/hpl_pfact.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "traces/grid.hpp"

namespace hplsim::traces {

void pivot_exchange_pattern(int myrow, int icurrow, int p, std::int64_t jb, Pattern& out) {
  if (p <= 1) return;
  const int d = mod_sub(myrow, icurrow, p);
  const int ip2 = floor_pow2(p);
  const int extra = p - ip2;
  const auto member = [&](int distance) { return mod_add(icurrow, distance, p); };
  const std::int64_t work = doubles(jb + 4);          // cnt_ in HPL_pdmxswp
  const std::int64_t work_diag = doubles(2 * jb + 4); // cnt0: WORK followed by the diagonal row A0
  const std::int64_t diag = doubles(jb);              // the diagonal row alone
  const bool folded = extra > 0 && (d ^ ip2) < p;
  if (folded) {
    if (d >= ip2)
      add_send_recv(out, member(d - ip2), work, d == ip2 ? diag : 0);
    else
      add_send_recv(out, member(d + ip2), d == 0 ? diag : 0, work);
  }
  if (d < ip2) {
    // Level `bit`: within [0, 2 bit) the lower half already has the diagonal row
    // and ships it along with its candidate; elsewhere only candidates travel.
    for (int bit = 1; bit < ip2; bit <<= 1) {
      const int partner = d ^ bit;
      if ((d >> 1) < bit)
        add_send_recv(out, member(partner), d < bit ? work_diag : work, d < bit ? work : work_diag);
      else
        add_send_recv(out, member(partner), work, work);
    }
  } else if (extra > 1) {
    binomial_bcast(d - ip2, extra, diag, member(ip2), p, out);
  }
  if (folded) {
    if (d >= ip2)
      add_recv(out, member(d - ip2), work);
    else
      add_send(out, member(d + ip2), work);
  }
}

std::int64_t pivot_messages_per_column(int p) {
  std::int64_t messages = 0;
  Pattern pattern;
  for (int r = 0; r < p; ++r) {
    pattern.clear();
    pivot_exchange_pattern(r, 0, p, 1, pattern);
    for (const PeerMsg& m : pattern)
      messages +=
          (m.kind == PeerMsg::Kind::Send || (m.kind == PeerMsg::Kind::SendRecv && m.send_bytes > 0)) ? 1 : 0;
  }
  return messages;
}

namespace {

// Lists a process row's part of the panel factorization (panel_factorization_work).
class PanelLister {
public:
  PanelLister(const std::vector<std::int64_t>& rows, const PanelGeometry& g, const HplConfig& config,
              std::vector<PanelWork>& out)
      : rows_(rows), config_(config), out_(out) {
    if (rows.size() != static_cast<std::size_t>(g.jb) + 1)
      throw std::invalid_argument("panel factorization: local rows for " + std::to_string(rows.size()) +
                                  " panel columns, not jb + 1 = " + std::to_string(g.jb + 1));
  }

  void run() { recurse(0, static_cast<std::int64_t>(rows_.size()) - 1); }

private:
  // Local rows of this process row in the global rows [row_begin + panel_col, n).
  std::int64_t rows_from(std::int64_t panel_col) const { return rows_[static_cast<std::size_t>(panel_col)]; }

  // Empty shapes are left out, as ProgramBuilder::compute leaves them out.
  void cpu(Kernel kernel, std::int64_t m, std::int64_t n, std::int64_t k) {
    if (!ProgramBuilder::is_empty(kernel, m, n, k)) out_.push_back({false, kernel, m, n, k});
  }

  // HPL_pdrpan{rl,ll,cr}N: panels wider than NBMIN are cut in chunks of
  // ceil(ceil(w / NBMIN) / NDIV) * NBMIN columns.
  void recurse(std::int64_t c0, std::int64_t w) {
    if (w <= config_.nbmin) return base_case(c0, w);
    const std::int64_t nbmin = config_.nbmin;
    const std::int64_t chunk = (((w + nbmin - 1) / nbmin + config_.ndiv - 1) / config_.ndiv) * nbmin;
    for (std::int64_t done = 0; done < w;) {
      const std::int64_t cw = std::min(chunk, w - done);
      const std::int64_t c = c0 + done;        // first panel column of the chunk
      const std::int64_t rest = w - done - cw; // columns right of the chunk at this level
      switch (config_.pfact) {
      case HplConfig::Pfact::Right: // HPL_pdrpanrlN: factor, then update what is right of it
        recurse(c, cw);
        cpu(KERNEL_TRSM, cw, rest, 0);
        cpu(KERNEL_GEMM, rows_from(c + cw), rest, cw);
        break;
      case HplConfig::Pfact::Left: // HPL_pdrpanllN: bring the chunk up to date, then factor
        cpu(KERNEL_TRSM, done, cw, 0);
        cpu(KERNEL_GEMM, rows_from(c), cw, done);
        recurse(c, cw);
        break;
      case HplConfig::Pfact::Crout: // HPL_pdrpancrN: update the chunk's columns and its U rows
        cpu(KERNEL_GEMM, rows_from(c), cw, done);
        recurse(c, cw);
        cpu(KERNEL_GEMM, cw, rest, done);
        cpu(KERNEL_TRSM, cw, rest, 0);
        break;
      }
      done += cw;
    }
  }

  // HPL_pdpan{rl,ll,cr}N: per column one HPL_pdmxswp then the local work.
  void base_case(std::int64_t c0, std::int64_t w) {
    for (std::int64_t i = 0; i < w; ++i) {
      out_.push_back({true, KERNEL_PFACT_COLUMN, 0, 0, c0 + i});
      cpu(KERNEL_PFACT_COLUMN, rows_from(c0 + i + 1), w, i);
    }
  }

  const std::vector<std::int64_t>& rows_;
  const HplConfig& config_;
  std::vector<PanelWork>& out_;
};

// Emits a process row's part of the panel factorization as ops.
class PanelEmitter {
public:
  PanelEmitter(ProgramBuilder& b, const Communicator& column, int myrow, const PanelGeometry& g,
               const HplConfig& config) {
    Pattern exchange;
    pivot_exchange_pattern(myrow, g.icurrow, g.p, g.jb, exchange);
    thread_local std::vector<PanelWork> work;
    work.clear();
    panel_factorization_work(myrow, g, config, work);
    for (const PanelWork& w : work) {
      if (w.exchange)
        emit_pivot_exchange(b, column, exchange, g, config, w.k);
      else
        b.compute(w.kernel, CPU, w.m, w.n, w.k, PFACT);
    }
  }
};

} // namespace

void emit_pivot_exchange(ProgramBuilder& b, const Communicator& column, const Pattern& exchange,
                         const PanelGeometry& g, const HplConfig& config, std::int64_t c) {
  if (g.p <= 1) return;
  if (config.pivot_collective && !config.messages_for_column(g.pcol)) {
    b.exchange(column, g.icurrow, g.jb, PFACT);
    if (config.collective_column(c)) b.mark_collective_from(0);
    return;
  }
  const std::int64_t group_size = config.pivot_group;
  if (group_size <= 1) {
    emit_pattern(b, column, exchange, PFACT);
    if (config.collective_column(c)) b.sync(column, PFACT);
    return;
  }
  if (c % group_size != 0) return;
  const std::int64_t group = std::min(group_size, g.jb - c);
  Pattern scaled = exchange;
  for (PeerMsg& m : scaled) {
    m.send_bytes *= group;
    m.recv_bytes *= group;
  }
  const int before = b.size();
  emit_pattern(b, column, scaled, PFACT);
  b.mark_receives_repeated(before, static_cast<std::uint32_t>(group));
  if (config.collective_column(c + group - 1)) b.sync(column, PFACT);
}

void panel_local_rows(int myrow, const PanelGeometry& g, std::vector<std::int64_t>& out) {
  out.resize(static_cast<std::size_t>(std::max<std::int64_t>(g.jb, 0)) + 1);
  for (std::size_t c = 0; c < out.size(); ++c)
    out[c] = local_count(g.row_begin + static_cast<std::int64_t>(c), g.n, g.nb, myrow, g.p);
}

void panel_factorization_work(const std::vector<std::int64_t>& rows, const PanelGeometry& g,
                              const HplConfig& config, std::vector<PanelWork>& out) {
  if (g.jb <= 0) return;
  PanelLister(rows, g, config, out).run();
}

void panel_factorization_work(int myrow, const PanelGeometry& g, const HplConfig& config,
                              std::vector<PanelWork>& out) {
  if (g.jb <= 0) return;
  thread_local std::vector<std::int64_t> rows;
  panel_local_rows(myrow, g, rows);
  panel_factorization_work(rows, g, config, out);
}

void emit_panel_factorization(ProgramBuilder& b, const Communicator& column, int myrow,
                              const PanelGeometry& g, const HplConfig& config) {
  if (g.jb <= 0) return;
  if (panel_collective_applies(g, config))
    return emit_collective_panel(b, column, g, config, panel_shape(g, config));
  PanelEmitter(b, column, myrow, g, config);
}

bool panel_collective_applies(const PanelGeometry& g, const HplConfig& config) {
  return config.panel_collective && g.p > 1 && !config.messages_for_column(g.pcol);
}

PanelShape panel_shape(const PanelGeometry& g, const HplConfig& config) {
  PanelShape shape;
  shape.set_n(g.n);
  shape.set_nb(g.nb);
  shape.set_row_begin(g.row_begin);
  shape.set_nbmin(config.nbmin);
  shape.set_ndiv(config.ndiv);
  shape.set_pfact(static_cast<int>(config.pfact));
  return shape;
}

void emit_collective_panel(ProgramBuilder& b, const Communicator& column, const PanelGeometry& g,
                           const HplConfig& config, const PanelShape& shape) {
  b.panel(column, g.icurrow, g.jb, shape, PFACT);
  if (config.panel_exchange != HplConfig::PanelExchange::P2P)
    b.mark_collective_from(config.panel_exchange == HplConfig::PanelExchange::Collective ? 0 : 1);
}

} // namespace hplsim::traces
