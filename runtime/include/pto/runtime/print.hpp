// TPRINT<PrintFormat>(src) (pto-isa docs/isa/TPRINT.md; a2a3 / a5 TPrint.hpp): a debugging print of a Vec
// tile or a GlobalTensor, as the chips do it: a pipe_barrier(PIPE_ALL) (issued, modeled and checked like
// any), then the values, formatted %8.4f / %8.2f / %10.6f (integers %8d / %10d), to the launch's print
// stream (LaunchConfig::print, std::cout by default), each print whole, headed by the core and the
// instruction number of its barrier. A tile prints all its Rows x Cols (a boxed one, e.g. NZ, as its
// logical matrix, the NPUs' GetTileOffset order), a '|' after the last valid column
// and a dashed line after the last valid row; a GlobalTensor prints its shape (ND / DN: each
// (d0, d1, d2) batch as d3 rows of d4; NZ: the logical matrix). Printing itself costs no modeled cycles
// (the chip's printf is far slower); a model-only run prints the header and notes that it has no data.
// The (src, tmp) form for Acc / Mat tiles arrives with the cube.
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/enums.hpp>
#include <pto/isa/global_tensor.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/core_api.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/sync.hpp>

namespace pto {

namespace detail {
template <class T>
inline constexpr bool kPrintable = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, std::int8_t> ||
                                   std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::int32_t> ||
                                   std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> ||
                                   std::is_same_v<T, std::uint32_t>;
}  // namespace detail

template <PrintFormat Format = PrintFormat::Width8_Precision4, class T>
  requires TileLike<T> || GlobalLike<T>
void TPRINT(T& src) {
  using namespace detail;
  static_assert(kPrintable<std::remove_cv_t<typename T::DType>>,
                "TPRINT: the element type must be float, half, int8/16/32 or uint8/16/32 (the chips' list)");
  Operand what;
  if constexpr (TileLike<T>) {
    static_assert(T::Loc == TileType::Vec, "TPRINT: a Vec tile or a GlobalTensor (the (src, tmp) form for Acc / Mat tiles "
                                           "arrives with the cube)");
    what.kind = Operand::Kind::Tile;
    what.tile = src.view();
  } else {
    static_assert(T::layout == Layout::ND || T::layout == Layout::DN || T::layout == Layout::NZ,
                  "TPRINT: a GlobalTensor must be ND, DN or NZ");
    what.kind = Operand::Kind::Gm;
    what.gm = src.view();
  }
  pipe_barrier(PIPE_ALL).finish();  // everything issued before has ended: the values are the kernel's
  print_operand(current_core(), what, Format);
}

// The NPUs' (src, tmp) form: tmp is GM scratch, where they copy an Acc / Mat tile before printing it. A Vec
// src prints as above; tmp must be a GlobalTensor (pto-isa's CPU simulator also takes a tile there, which
// no chip's code compiles).
template <PrintFormat Format = PrintFormat::Width8_Precision4, class T, class Tmp>
  requires TileLike<T>
void TPRINT(T& src, Tmp&) {
  static_assert(GlobalLike<Tmp>, "TPRINT: tmp must be a GlobalTensor (the NPUs' GM scratch for Acc / Mat tiles)");
  TPRINT<Format>(src);
}

}  // namespace pto
