// TASSIGN: bind a Tile to a byte offset of its buffer (UB for Vec, L1 for Mat, L0C for Acc, ...), or a GlobalTensor to a GM pointer
// (spec §1.5). Only the address moves; the layout stays in the type.
#pragma once
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <type_traits>

#include <pto/isa/buffers.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/global_tensor.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/core_api.hpp>

namespace pto {

namespace detail {
template <TileLike T>
void tassign_tile(T& tile, std::uint64_t addr) {
  Core& core = current_core();
  const Target target = core_target(core);
  const std::size_t capacity = buffer_bytes(core, T::Loc);
  if (capacity == 0)
    fail("TASSIGN: operand tile ", tile.view(), ": ", name_of(T::Loc), " tiles have no buffer on ", name_of(target));
  // An address taken from another tile of the buffer (`(uint64_t)other.data() + bytes`, as the chip's
  // kernels cut sub-views): on the host data() is a host pointer into the buffer, so take its offset.
  // Offsets are below the buffer's size and host pointers far above it: the two never meet.
  const auto base = reinterpret_cast<std::uintptr_t>(buffer_base(core, T::Loc));
  if (addr >= base && addr - base <= capacity) addr -= base;
  if (addr % kBlockBytes != 0)
    fail("TASSIGN: operand tile ", tile.view(), ": address 0x", std::hex, addr, std::dec,
         " is not 32-byte aligned (every on-chip address must be a multiple of 32)");
  if (addr > capacity || T::GetSizeInBytes() > capacity - addr)  // never addr + size: it can wrap
    fail("TASSIGN: operand tile ", tile.view(), ": bytes [0x", std::hex, addr, ", 0x", addr + T::GetSizeInBytes(),
         ") exceed the ", std::dec, capacity / 1024, " KiB ", memory_name(memory_of(T::Loc)), " of ", name_of(target),
         " (tile size ", T::GetSizeInBytes(), " bytes at offset ", addr, ")");
  {
    std::ostringstream what;
    what << tile.view() << " at 0x" << std::hex << addr;
    note_tassign(core, T::Loc, addr, T::GetSizeInBytes(), what.str());
  }
  tile.drop_placement();
  tile.addr_ = buffer_base(core, T::Loc) + addr;
  tile.offset_ = static_cast<std::uint32_t>(addr);
  tile.owner_ = core_run_id(core);
}
}  // namespace detail

// TASSIGN(tile, offset) / TASSIGN(globalTensor, pointer).
template <class T, class Addr>
void TASSIGN(T& obj, Addr addr) {
  if constexpr (TileLike<T>) {
    static_assert(std::is_integral_v<Addr>, "TASSIGN(tile, addr): addr must be an integral byte offset");
    if constexpr (std::is_signed_v<Addr>)
      if (addr < 0) detail::fail("TASSIGN: operand tile ", obj.view(), ": address ", addr, " is negative");
    detail::tassign_tile(obj, static_cast<std::uint64_t>(addr));
  } else if constexpr (GlobalLike<T>) {
    static_assert(std::is_same_v<Addr, typename T::DType*>,
                  "TASSIGN(globalTensor, ptr): ptr must point to exactly the tensor's DType");
    obj.SetAddr(addr);
  } else {
    static_assert(TileLike<T>, "TASSIGN: the first operand must be a Tile or a GlobalTensor");
  }
}

// TASSIGN<Addr>(tile): the static checks of tassign_check.hpp, then the runtime checks for the target.
template <std::size_t Addr, class T>
void TASSIGN(T& obj) {
  static_assert(TileLike<T>, "TASSIGN<Addr>: only Tiles take a static address");
  static_assert(buffer_capacity(Target::A5, T::Loc) > 0, "TASSIGN<Addr>: this TileType has no buffer (capacity 0)");
  static_assert(T::GetSizeInBytes() <= std::max(buffer_capacity(Target::A2A3, T::Loc), buffer_capacity(Target::A5, T::Loc)),
                "TASSIGN<Addr>: the tile is larger than its buffer on every target");
  static_assert(Addr + T::GetSizeInBytes() <= std::max(buffer_capacity(Target::A2A3, T::Loc), buffer_capacity(Target::A5, T::Loc)),
                "TASSIGN<Addr>: Addr + tile bytes exceed the buffer on every target");
  static_assert(Addr % 32 == 0, "TASSIGN<Addr>: Addr must be 32-byte aligned");
  detail::tassign_tile(obj, Addr);
}

}  // namespace pto
