// The instruction registry: every descriptor's pipe is its Op's, every described compute instruction has
// a CPU kernel, and where a device algorithm and the planner both price a form, their intrinsic streams
// are the same (random shapes, dtypes, strides and operand roles, both targets).
#define BOOST_TEST_MODULE registry
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <map>
#include <random>
#include <set>
#include <span>
#include <sstream>
#include <tuple>
#include <vector>

#include <pto/backends/registry.hpp>
#include <pto/isa/conversions.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/instr_desc.hpp>

using namespace pto;

namespace {
// Every descriptor runs on the pipe its Op has in the op list: the pipe is written once.
constexpr bool pipes_agree() {
  for (const InstrDesc& d : kInstrTable)
    if (d.pipe != pipe_of(d.op)) return false;
  return true;
}
static_assert(pipes_agree(), "a descriptor's pipe differs from its Op's pipe in isa/op.hpp");

// Synchronisation instructions (flags, barriers, TSYNC, SYNCALL) and the address rebinds (TRESHAPE,
// TSUBVIEW) have no operands and no kernel; TPRINT prints on the host after its barrier (no kernel).
bool is_sync(Op op) { return find_desc(op)->operand_count == 0 || op == Op::TPRINT; }
}  // namespace

BOOST_AUTO_TEST_CASE(every_described_compute_instruction_has_a_cpu_kernel_and_every_entry_a_descriptor) {
  int described = 0;
  for (const InstrDesc& d : kInstrTable) {
    if (is_sync(d.op)) continue;
    ++described;
    const backend::InstrImpl* impl = backend::find(d.op);
    BOOST_TEST_INFO(d.name);
    BOOST_TEST_REQUIRE(impl != nullptr);
    BOOST_TEST(impl->cpu.finish != nullptr);
  }
  std::set<Op> seen;
  for (const backend::InstrImpl* i : backend::all()) {
    BOOST_TEST_INFO(op_name(i->op));
    BOOST_TEST(find_desc(i->op) != nullptr);
    BOOST_TEST(seen.insert(i->op).second);
    for (int t = 0; t < kNumTargets; ++t) {
      const backend::DevicePath& p = i->target[t].path;
      // covers / execute / record are declared together: all or none.
      BOOST_TEST((p.covers == nullptr) == (p.execute == nullptr));
      BOOST_TEST((p.covers == nullptr) == (p.record == nullptr));
      // A planner is the fallback for forms the path does not cover; a path that covers every form its
      // instruction accepts (the element-wise tile-tile family) has none, and a form it cannot record is
      // then an error naming the chip's rule, even in a cpu_reference run (test_binary prices such runs).
    }
  }
  BOOST_TEST(int(backend::all().size()) == described);
}

BOOST_AUTO_TEST_CASE(an_instruction_nothing_implements_is_an_error_naming_it) {
  ExecContext c;
  c.op = Op::TIMG2COL;  // an op of the ISA nothing implements yet
  BOOST_TEST(backend::find(Op::TIMG2COL) == nullptr);
  BOOST_CHECK_EXCEPTION(backend::kernel_for(c, true), Error, [](const Error& e) {
    return std::string(e.what()).find("TIMG2COL: no backend implements this instruction") != std::string::npos;
  });
}

// ---- stream equality: device algorithm (recording) vs planner ----------------------------------------
namespace {
struct Ub {
  alignas(64) std::byte bytes[256 * 1024];
  std::size_t used = 0;
};

struct Case {
  Operand ops[kMaxOperands];
  ExecContext ctx;
};

std::string text(const IntrinsicStream& s) {
  std::ostringstream os;
  for (const IntrinsicCall& c : s.calls())
    os << intrinsic_name(c.op) << (c.count_mode ? " count " : " norm ") << c.repeats << "r " << c.lanes << "l x" << c.calls
       << (c.barrier_before ? " |" : "") << " " << c.bytes << "B; ";
  return os.str();
}

// A5 streams are issue counts over the vector-function loop, in any order; the predicate and splat
// intrinsics (plt, vbr: priced at 0, the planner leaves them out) do not count.
std::map<Intrinsic, std::uint64_t> issues(const IntrinsicStream& s) {
  std::map<Intrinsic, std::uint64_t> n;
  for (const IntrinsicCall& c : s.calls())
    if (c.op != Intrinsic::plt && c.op != Intrinsic::vbr) n[c.op] += std::uint64_t(c.repeats) * c.calls;
  return n;
}

// A2A3 streams compare call by call, without the block / repeat strides (the planner does not derive them).
bool same_counts(const IntrinsicStream& a, const IntrinsicStream& b, Target t) {
  if (t == Target::A5) return issues(a) == issues(b);
  // Call by call: an entry of n identical calls is n calls, the barrier before the first (the device
  // stream's strides can keep calls apart that the planner's merge).
  auto expand = [](const IntrinsicStream& s) {
    std::vector<std::tuple<Intrinsic, bool, bool, std::uint16_t, std::uint32_t, std::uint64_t>> v;
    for (const IntrinsicCall& c : s.calls())
      for (std::uint32_t k = 0; k < c.calls; ++k) v.emplace_back(c.op, c.count_mode, k == 0 && c.barrier_before, c.lanes, c.repeats, c.bytes);
    return v;
  };
  return expand(a) == expand(b);
}

class Gen {
public:
  explicit Gen(unsigned seed) : rng_(seed) {}
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool coin() { return pick(0, 1) == 1; }

  // A RowMajor (or ColMajor) tile of `rows` x `cols` capacity, valid `vr` x `vc`, placed in `ub`.
  TileView tile(Ub& ub, DType t, int rows, int cols, int vr, int vc, bool row_major = true) {
    TileView v;
    v.dtype = t;
    v.rows = rows;
    v.cols = cols;
    v.valid_rows = vr;
    v.valid_cols = vc;
    v.row_major = row_major;
    v.row_stride = row_major ? cols : 1;
    v.col_stride = row_major ? 1 : rows;
    v.static_valid_rows = coin();
    v.static_valid_cols = coin();
    const std::size_t bytes = (v.capacity_bytes() + 31) / 32 * 32;
    if (ub.used + bytes > sizeof ub.bytes) throw std::length_error("ub");
    v.offset = std::uint32_t(ub.used);
    v.base = ub.bytes + ub.used;
    ub.used += bytes;
    return v;
  }
  // Capacity columns whose rows are whole 32-byte blocks.
  int cols_for(DType t, int at_least) {
    const int block = int(32 / size_of(t));
    return (at_least + block - 1) / block * block;
  }

private:
  std::mt19937 rng_;
};

void add(Case& c, const TileView& v, Role r) {
  Operand& o = c.ops[c.ctx.nops++];
  o.kind = Operand::Kind::Tile;
  o.role = r;
  o.tile = v;
}

// Complement: the planner prices only forms no device path covers (the reductions' A5 64-bit forms).
enum class Shape { TileScalar, ColExpandOp, RowExpandOp, ColExpand, RowExpand, ExpandS, Mov, Convert, Select, Trans, FillPad, Complement };

Shape shape_of(Op op) {
  const std::string n = find_desc(op)->name;
  if (n.rfind("TCOLEXPAND", 0) == 0) return n == "TCOLEXPAND" ? Shape::ColExpand : Shape::ColExpandOp;
  if (n.rfind("TROWEXPAND", 0) == 0) return n == "TROWEXPAND" ? Shape::RowExpand : Shape::RowExpandOp;
  if (n == "TEXPANDS") return Shape::ExpandS;
  if (n == "TMOV") return Shape::Mov;
  if (n == "TCVT") return Shape::Convert;
  if (n == "TSEL" || n == "TSELS") return Shape::Select;
  if (n == "TTRANS") return Shape::Trans;
  if (n.rfind("TFILLPAD", 0) == 0) return Shape::FillPad;
  if (n.rfind("TROW", 0) == 0 || n.rfind("TCOL", 0) == 0) return Shape::Complement;
  return Shape::TileScalar;
}

// A random, legal-looking operand set for `op` (the legality checks at issue are not run here: the
// device path's covers() decides, as in the runtime).
bool make_case(Gen& g, Ub& ub, Op op, Target target, Case& c) {
  static const DType kTypes[] = {DType::F32, DType::F16, DType::I32, DType::I16, DType::BF16, DType::U8, DType::I8, DType::U16};
  const DType t = kTypes[g.pick(0, 7)];
  c.ctx = ExecContext{};
  c.ctx.ops = c.ops;
  c.ctx.op = op;
  c.ctx.target = target;
  c.ctx.ub = ub.bytes;
  c.ctx.ub_bytes = sizeof ub.bytes;
  c.ctx.scalar = ScalarValue::of(std::uint64_t(3));
  const int R = g.pick(1, g.coin() ? 8 : 64), C = g.cols_for(t, g.pick(1, g.coin() ? 64 : 300));
  const int vr = g.coin() ? R : g.pick(1, R), vc = g.coin() ? C : g.pick(1, C);
  switch (shape_of(op)) {
    case Shape::TileScalar: {
      const bool rm = g.pick(0, 3) != 0;
      add(c, g.tile(ub, t, R, C, vr, vc, rm), Role::Write);
      const bool widen = op == Op::TAXPY && t == DType::F32 && g.coin();
      add(c, g.tile(ub, widen ? DType::F16 : t, R, widen ? g.cols_for(DType::F16, C) : C, vr, vc, rm), Role::Read);
      if (op == Op::TDIVS && g.coin()) c.ctx.variant |= kVariantScalarFirst;
      return true;
    }
    case Shape::ColExpandOp: {
      const bool swap = g.coin();
      const TileView d = g.tile(ub, t, R, C, vr, vc), f = g.tile(ub, t, R, C, vr, vc), v = g.tile(ub, t, 1, C, 1, vc);
      add(c, d, Role::Write);
      add(c, swap ? v : f, Role::Read);
      add(c, swap ? f : v, Role::Read);
      if (swap) c.ctx.variant |= kVariantSwap;
      return true;
    }
    case Shape::RowExpandOp: {
      const bool swap = g.coin(), mode2 = g.coin();
      const int be = int(32 / size_of(t));
      const TileView d = g.tile(ub, t, R, C, vr, vc), f = g.tile(ub, t, R, C, vr, vc);
      const TileView e = mode2 ? g.tile(ub, t, R, be, vr, be) : g.tile(ub, t, g.cols_for(t, R), 1, vr, 1, false);
      add(c, d, Role::Write);
      add(c, swap ? e : f, Role::Read);
      add(c, swap ? f : e, Role::Read);
      if (!mode2) add(c, g.tile(ub, DType::U8, 1, 30 * 256, 1, 30 * 256), Role::Write);  // A2A3 vbrcb scratch
      c.ctx.variant |= (swap ? kVariantSwap : 0) | (mode2 ? kVariantMode2 : 0);
      return true;
    }
    case Shape::ColExpand:
      add(c, g.tile(ub, t, R, C, vr, vc), Role::Write);
      add(c, g.tile(ub, t, 1, C, 1, vc), Role::Read);
      return true;
    case Shape::RowExpand: {
      add(c, g.tile(ub, t, R, C, vr, vc), Role::Write);
      const bool col = g.coin();
      add(c, col ? g.tile(ub, t, g.cols_for(t, R), 1, vr, 1, false) : g.tile(ub, t, R, g.cols_for(t, 1), vr, 1), Role::Read);
      return true;
    }
    case Shape::ExpandS:
      add(c, g.tile(ub, t, R, C, vr, vc, g.pick(0, 3) != 0), Role::Write);
      return true;
    case Shape::Mov: {
      add(c, g.tile(ub, t, R, C, vr, vc), Role::Write);
      add(c, g.tile(ub, t, R, C, vr, vc), Role::Read);
      return true;
    }
    case Shape::Convert: {  // a pair of the target (the packed 4-bit ones aside), a random mode and saturation
      const std::span<const CvtPair> pairs = target == Target::A5 ? std::span<const CvtPair>(cvt_detail::kA5)
                                                                  : std::span<const CvtPair>(cvt_detail::kA2A3);
      const CvtPair& p = pairs[std::size_t(g.pick(0, int(pairs.size()) - 1))];
      if (is_packed4(p.src) || is_packed4(p.dst)) return false;
      const int cc = size_of(p.src) == 8 || size_of(p.dst) == 8 ? std::min(C, 128) : C;
      const int cv = std::min(vc, cc);
      const int cw = g.cols_for(DType::U8, cc);  // whole 32-byte rows for either type
      add(c, g.tile(ub, p.dst, R, cw, vr, cv), Role::Write);
      add(c, g.tile(ub, p.src, R, cw, vr, cv), Role::Read);
      const RoundMode m = RoundMode(g.pick(0, 6));
      const SaturationMode sat = cvt_effective_sat(p.src, p.dst, g.coin(), g.coin() ? SaturationMode::OFF : SaturationMode::ON);
      const bool torch = target == Target::A2A3 && sat == SaturationMode::OFF &&
                         ((p.src == DType::F32 && p.dst == DType::I16) || (p.src == DType::F16 && (p.dst == DType::I16 || p.dst == DType::I8)));
      if (torch) add(c, g.tile(ub, DType::U8, 1, 65536, 1, 65536), Role::Write);
      c.ctx.variant = std::uint8_t((std::uint8_t(cvt_effective_mode(p, m)) << kVariantCvtShift) |
                                   (sat == SaturationMode::OFF ? kVariantCvtSatOff : 0) | (torch ? kVariantCvtTmp : 0));
      return true;
    }
    case Shape::Select: {  // dst, the mask, src0 (, src1), tmp
      const int mc = g.cols_for(DType::U8, (C + 7) / 8);
      add(c, g.tile(ub, t, R, C, vr, vc), Role::Write);
      add(c, g.tile(ub, DType::U8, R, mc, vr, mc), Role::Read);
      add(c, g.tile(ub, t, R, C, vr, vc), Role::Read);
      if (op == Op::TSEL) add(c, g.tile(ub, t, R, C, vr, vc), Role::Read);
      add(c, g.tile(ub, DType::U8, 1, 32, 1, 32), Role::Write);
      return true;
    }
    case Shape::Trans: {  // dst holds src's valid region transposed; A2A3's vnchwconv form when the strides allow
      const int es = int(size_of(t)), be = 32 / es, y = es == 1 ? 32 : 16;
      const TileView s = g.tile(ub, t, R, C, vr, vc);
      const int dc = g.coin() ? (vr + y - 1) / y * y : g.cols_for(t, vr);
      add(c, g.tile(ub, t, vc, dc, vc, vr), Role::Write);
      add(c, s, Role::Read);
      const int tr = (vc + be - 1) / be * be, tc = (vr + y - 1) / y * y;
      add(c, g.tile(ub, t, tr, tc, tr, tc), Role::Write);
      if (dc % y == 0 && s.row_stride % be == 0) c.ctx.variant |= kVariantTransAligned;
      return true;
    }
    case Shape::FillPad: {  // dst at least src's static shape and valid rows; src's valid region inside
      const bool in_place = op == Op::TFILLPAD_INPLACE;
      const int dr = op == Op::TFILLPAD_EXPAND ? R + g.pick(0, 8) : R, dcols = op == Op::TFILLPAD_EXPAND ? g.cols_for(t, C + g.pick(0, 40)) : C;
      const TileView s = g.tile(ub, t, R, C, vr, vc);
      TileView d = in_place ? s : g.tile(ub, t, dr, dcols, g.pick(vr, dr), dcols);
      d.valid_rows = g.pick(vr, d.rows);
      d.valid_cols = d.cols;
      add(c, d, Role::Write);
      add(c, s, Role::Read);
      if (in_place) c.ctx.variant |= kVariantFillInPlace;
      return true;
    }
    case Shape::Complement:
      return false;
  }
  return false;
}
}  // namespace

BOOST_AUTO_TEST_CASE(device_algorithms_and_the_planner_issue_the_same_stream_wherever_both_exist) {
  static Ub ub;
  Gen g(20261201);
  int compared = 0, differ = 0;
  std::string first_difference;
  for (const backend::InstrImpl* impl : backend::all()) {
    for (int tgt = 0; tgt < kNumTargets; ++tgt) {
      const backend::TargetImpl& ti = impl->target[tgt];
      if (!ti.path.covers || !ti.plan) continue;
      for (int k = 0; k < 60; ++k) {
        ub.used = 0;
        Case c;
        if (!make_case(g, ub, impl->op, Target(tgt), c) || !ti.path.covers(c.ctx)) continue;
        IntrinsicStream rec, plan;
        try {
          ti.path.record(c.ctx, rec);
        } catch (const Error&) {
          continue;  // a form the chip rejects (a stride field overflows, ...): nothing to compare
        }
        ti.plan(c.ctx, plan);
        ++compared;
        if (!same_counts(rec, plan, Target(tgt))) {
          ++differ;
          if (first_difference.empty())
            first_difference = std::string(find_desc(impl->op)->name) + " on " + name_of(Target(tgt)) + " dst " +
                               std::to_string(c.ops[0].tile.rows) + "x" + std::to_string(c.ops[0].tile.cols) + " valid " +
                               std::to_string(c.ops[0].tile.valid_rows) + "x" + std::to_string(c.ops[0].tile.valid_cols) +
                               " " + name_of(c.ops[0].tile.dtype) + "\n  device:  " + text(rec) + "\n  planner: " + text(plan);
        }
      }
    }
  }
  BOOST_TEST_MESSAGE("compared " << compared << " random forms, " << differ << " differ");
  BOOST_TEST(compared > 1000);
  BOOST_TEST(differ == 0, first_difference);
}
