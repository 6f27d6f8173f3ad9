// The narrow, type-erased interface between the runtime and a backend: a record of operand views and
// a scalar, and two phases. `start` runs when the instruction starts on its pipe (it may copy what it
// reads into `staging`, as a DMA engine does); `finish` runs when it ends and makes its writes visible.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <pto/isa/enums.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/views.hpp>

namespace pto {

struct Operand {
  enum class Kind : std::uint8_t { None, Tile, Gm };
  Kind kind = Kind::None;
  Role role = Role::Read;
  union {  // `kind` says which; a union keeps records small (they are copied on every issue)
    TileView tile;
    GmView gm;
  };
  std::uint32_t write_tail_bytes = 0;  // bytes written past the end of each valid line (TLOAD's pad)
  Operand() : tile() {}

  // Bounding box of the bytes the operand reads (write = false) or writes (write = true).
  ByteRange footprint(bool write = false) const {
    if (kind == Kind::Gm) return gm.footprint();
    if (kind != Kind::Tile) return {};
    ByteRange r = tile.footprint();
    if (write && !r.empty()) r.hi += write_tail_bytes;
    return r;
  }
  bool reads() const { return role != Role::Write; }
  bool writes() const { return role != Role::Read; }
};

// A scalar operand, stored in the bits of the instruction's element type.
struct ScalarValue {
  std::uint64_t bits = 0;
  template <class T> static ScalarValue of(T v) {
    ScalarValue s;
    std::memcpy(&s.bits, static_cast<const void*>(&v), sizeof(T));
    return s;
  }
  template <class T> T as() const {
    T v;
    std::memcpy(static_cast<void*>(&v), &bits, sizeof(T));
    return v;
  }
};

inline constexpr int kMaxOperands = 4;

// Form bits an instruction's record carries to its backend (ExecContext::variant).
inline constexpr std::uint8_t kVariantSwap = 1;         // the broadcast / expand operand is src0, not src1
inline constexpr std::uint8_t kVariantMode2 = 2;        // row expansion by one 32-byte block per row
inline constexpr std::uint8_t kVariantScalarFirst = 4;  // scalar op tile (TDIVS(dst, scalar, src))

struct ExecContext {
  const Operand* ops = nullptr;
  int nops = 0;
  ScalarValue scalar{};
  std::uint8_t variant = 0;
  Target target = Target::A2A3;
  std::vector<std::byte>* staging = nullptr;  // owned by the runtime, alive from start to finish
};

using PhaseFn = void (*)(ExecContext&);

struct BackendKernel {
  PhaseFn start = nullptr;   // optional
  PhaseFn finish = nullptr;  // required
  // true when `start` captures every on-chip byte the instruction reads, so the runtime never needs
  // to snapshot them for a late `finish` (DMA: TSTORE stages its source at start).
  bool reads_staged_at_start = false;
};

}  // namespace pto
