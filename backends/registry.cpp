// The registry: the family tables merged into one Op-indexed table, checked once (an Op registered
// twice, or registered without a descriptor, is a bug caught on first use and by test_registry).
#include <array>
#include <string>

#include <pto/backends/registry.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/instr_desc.hpp>

#include "instructions/families.hpp"

namespace pto::backend {
namespace {

struct Table {
  std::array<const InstrImpl*, kNumOps> by_op{};
  std::vector<const InstrImpl*> in_order;
  Table() {
    for (auto family : {data_movement_instructions(), broadcast_instructions(), tile_scalar_instructions(),
                        binary_instructions(), unary_instructions(), reduce_instructions(),
                        select_instructions(), convert_instructions(), compound_instructions(),
                        sort_instructions(), generate_instructions(), layout_instructions(),
                        partial_instructions(), quant_instructions(), cube_instructions()})
      for (const InstrImpl& i : family) {
        const int k = int(i.op);
        if (k < 0 || k >= kNumOps) detail::fail("backend registry: an entry has no valid Op");
        if (by_op[std::size_t(k)]) detail::fail("backend registry: ", op_name(i.op), " is registered twice");
        if (!find_desc(i.op)) detail::fail("backend registry: ", op_name(i.op), " is registered but has no descriptor in isa/instr_desc.hpp");
        by_op[std::size_t(k)] = &i;
      }
    for (const InstrImpl* i : by_op)
      if (i) in_order.push_back(i);
  }
};
const Table& table() {
  static const Table t;
  return t;
}
const TargetImpl* target_of(const ExecContext& ctx) {
  const InstrImpl* i = find(ctx.op);
  return i ? &i->target[int(ctx.target)] : nullptr;
}
}  // namespace

const InstrImpl* find(Op op) {
  const int k = int(op);
  return k >= 0 && k < kNumOps ? table().by_op[std::size_t(k)] : nullptr;
}

std::span<const InstrImpl* const> all() { return table().in_order; }

bool device_covers(const ExecContext& ctx) {
  const TargetImpl* t = target_of(ctx);
  return t && t->path.covers && t->path.covers(ctx);
}

const BackendKernel& kernel_for(const ExecContext& ctx, bool device) {
  const InstrImpl* i = find(ctx.op);
  if (!i) detail::fail(op_name(ctx.op), ": no backend implements this instruction for target ", name_of(ctx.target));
  if (device) {
    const DevicePath& p = i->target[int(ctx.target)].path;
    // One kernel object per (instruction, target): the runtime keeps a pointer to it.
    static const auto kernels = [] {
      std::array<std::array<BackendKernel, kNumTargets>, kNumOps> k{};
      for (const InstrImpl* e : table().in_order)
        for (int t = 0; t < kNumTargets; ++t) k[std::size_t(e->op)][std::size_t(t)] = {nullptr, e->target[t].path.execute, nullptr};
      return k;
    }();
    if (p.covers && p.covers(ctx)) return kernels[std::size_t(ctx.op)][std::size_t(ctx.target)];
  }
  if (!i->cpu.finish) detail::fail(op_name(ctx.op), ": no backend implements this instruction for target ", name_of(ctx.target));
  return i->cpu;
}

bool record_stream(const ExecContext& ctx, IntrinsicStream& out, bool chip_errors) {
  out.clear();
  const TargetImpl* t = target_of(ctx);
  if (!t) return false;
  if (t->path.covers && t->path.covers(ctx)) {
    if (chip_errors || !t->plan) {
      t->path.record(ctx, out);
      return true;
    }
    try {
      t->path.record(ctx, out);
      return true;
    } catch (const Error&) {
      out.clear();  // the chip rejects this form; the CPU reference computes it, the planner prices it
    }
  }
  if (!t->plan) return false;
  t->plan(ctx, out);
  return true;
}

Overrun device_overrun(const ExecContext& ctx) {
  const TargetImpl* t = target_of(ctx);
  if (!t || !t->path.overrun) return {};
  Overrun o = t->path.overrun(ctx);  // cheap: most instructions write nothing extra
  if ((o.tail_bytes == 0 && o.extra_lines == 0) || !t->path.covers(ctx)) return {};
  return o;
}

}  // namespace pto::backend
