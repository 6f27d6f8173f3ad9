// Tile: PTO's on-chip tile type, template parameters in pto-isa's code order (spec §1.2).
// A Tile is {buffer address, layout}: TASSIGN moves only the address (runtime/tassign.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <pto/isa/dtype.hpp>
#include <pto/isa/enums.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/views.hpp>

namespace pto {

namespace detail {
// Auto mode places a tile that was never TASSIGNed at its first use; the placement lives while some
// Tile object holds it, so the bytes of tiles that died can be reused. The runtime installs these
// (isa/ only calls them): retain/release(address, owner run id).
struct TileHooks {
  void (*retain)(std::byte*, std::uint64_t) = nullptr;
  void (*release)(std::byte*, std::uint64_t) = nullptr;
  void (*mad_mode)(int) = nullptr;  // the running core's TF32 mode: a RoundMode, or -1 for off
  // The kernel reaches a tile's bytes through data() (GetValue / SetValue / a raw pointer): the
  // unwritten-reads check counts them as written (address, bytes).
  void (*host_access)(const std::byte*, std::size_t) = nullptr;
};
inline TileHooks tile_hooks;
// Where a dead auto-placed Tile points: its bytes went back to auto mode, so a use through a pointer or
// reference that outlived the object is an error (place_operand), not a silent alias of the next tile.
inline std::byte dead_tile_mark;
}  // namespace detail

template <TileType Loc_, typename Element_, int Rows_, int Cols_, BLayout BFractal_ = BLayout::RowMajor,
          int RowValid_ = Rows_, int ColValid_ = Cols_, SLayout SFractal_ = SLayout::NoneBox,
          int SFractalSize_ = 512, auto PadVal_ = PadValue::Null, CompactMode Compact_ = CompactMode::Null>
struct Tile {
  static_assert(ElementType<Element_>,
                "Tile: Element must be half, bfloat16_t, float or an 8/16/32/64-bit integer type");
  using DType = Element_;
  using TileDType = Element_*;

  static constexpr TileType Loc = Loc_;
  static constexpr int Rows = Rows_;
  static constexpr int Cols = Cols_;
  static constexpr int ValidRow = RowValid_;
  static constexpr int ValidCol = ColValid_;
  static constexpr BLayout BFractal = BFractal_;
  static constexpr SLayout SFractal = SFractal_;
  static constexpr int SFractalSize = SFractalSize_;
  static constexpr PadValue PadVal = static_cast<PadValue>(PadVal_);
  static constexpr CompactMode Compact = Compact_;
  static constexpr int Numel = Rows * Cols;
  static constexpr bool isRowMajor = BFractal == BLayout::RowMajor;
  static constexpr bool isBoxedLayout = SFractal != SLayout::NoneBox;
  static constexpr bool isInnerRowMajor = SFractal == SLayout::RowMajor;
  static constexpr bool isInnerColMajor = SFractal == SLayout::ColMajor;
  static constexpr int InnerRows = !isBoxedLayout ? 1
                                   : SFractalSize == 1024 ? 16
                                   : SFractalSize == 32   ? (isInnerRowMajor ? 16 : 2)
                                   : isInnerRowMajor      ? 16
                                                          : kBlockElems<DType>;
  static constexpr int InnerCols = !isBoxedLayout ? 1
                                   : SFractalSize == 1024 ? 16
                                   : SFractalSize == 32   ? (isInnerRowMajor ? 2 : 16)
                                   : isInnerRowMajor      ? kBlockElems<DType>
                                                          : 16;
  static constexpr int InnerNumel = InnerRows * InnerCols;
  // The 4-bit types in cube tiles (Mat, Left, Right) and GM are packed by element offset: offset o in
  // nibble o % 2 of byte o / 2, half a byte each, as the chips hold them (fractal lines of 32 bytes,
  // 64 elements). A Vec tile of them keeps a byte per element of capacity (docs/conversions.md).
  static constexpr bool kNibbles = is_packed4(dtype_v<DType>) && Loc != TileType::Vec;
  static constexpr int RowStride = isRowMajor ? Cols : 1;
  static constexpr int ColStride = isRowMajor ? 1 : Rows;

  // ---- compile-time legality (spec §1.2), one readable message per rule ----
  static_assert(Rows > 0 && Cols > 0, "Tile: Rows and Cols must be positive");
  static_assert(RowValid_ == -1 || (RowValid_ >= 0 && RowValid_ <= Rows),
                "Tile: static RowValid must be -1 (dynamic) or in [0, Rows]");
  static_assert(ColValid_ == -1 || (ColValid_ >= 0 && ColValid_ <= Cols),
                "Tile: static ColValid must be -1 (dynamic) or in [0, Cols]");
  static_assert(SFractalSize == 512 || SFractalSize == 1024 || SFractalSize == 32,
                "Tile: SFractalSize must be 512, 1024 or 32");
  static_assert(!(isRowMajor && !isBoxedLayout) || (Cols * sizeof(DType)) % 32 == 0,
                "Tile: a RowMajor NoneBox tile needs Cols * sizeof(DType) to be a multiple of 32 bytes");
  static_assert(!(!isRowMajor && !isBoxedLayout) || (Rows * sizeof(DType)) % 32 == 0,
                "Tile: a ColMajor NoneBox tile needs Rows * sizeof(DType) to be a multiple of 32 bytes");
  static_assert(!isBoxedLayout || Cols % InnerCols == 0, "Tile: a boxed tile needs Cols % InnerCols == 0");
  static_assert(!isBoxedLayout || Loc == TileType::Vec || SFractalSize == 32 || Rows == 1 || Rows % InnerRows == 0,
                "Tile: a boxed tile needs Rows % InnerRows == 0");

  // ---- constructors (SFINAE-equivalent constraints, as pto-isa) ----
  Tile() = default;
  // Copies share the placement (a Tile is {address, layout}); an auto-mode placement is counted.
  Tile(const Tile& o)
      : RowMaskInternal(o.RowMaskInternal), ColMaskInternal(o.ColMaskInternal), addr_(o.addr_), offset_(o.offset_),
        owner_(o.owner_), auto_placed_(o.auto_placed_), k_aligned_(o.k_aligned_) {
    if (auto_placed_ && detail::tile_hooks.retain) detail::tile_hooks.retain(addr_, owner_);
  }
  // A Tile re-created in place from one with no address (`aMatTile[buf] = TileMatA(m, k)`, pto-isa's A5
  // mxfp4 GEMM) takes the new valid shape and keeps its address, as that kernel relies on the NPU's
  // compiler to do (the temporary's address register is never set, so the copy leaves the target's).
  Tile& operator=(const Tile& o) {
    if (this == &o) return *this;
    if (o.addr_ == nullptr && addr_ != nullptr) {
      RowMaskInternal = o.RowMaskInternal;
      ColMaskInternal = o.ColMaskInternal;
      return *this;
    }
    if (o.auto_placed_ && detail::tile_hooks.retain) detail::tile_hooks.retain(o.addr_, o.owner_);
    drop_placement();
    RowMaskInternal = o.RowMaskInternal;
    ColMaskInternal = o.ColMaskInternal;
    addr_ = o.addr_;
    offset_ = o.offset_;
    owner_ = o.owner_;
    auto_placed_ = o.auto_placed_;
    k_aligned_ = o.k_aligned_;
    return *this;
  }
  ~Tile() {
    const bool placed = auto_placed_;
    drop_placement();
    // A volatile store: the compiler drops ordinary stores to an object whose lifetime ends (GCC's
    // lifetime dead-store elimination), and this one is for whoever still looks at it.
    if (placed) *static_cast<std::byte* volatile*>(&addr_) = &detail::dead_tile_mark;
  }
  // An auto-mode placement this object holds is given back (TASSIGN moves the tile elsewhere).
  void drop_placement() const {
    if (auto_placed_ && detail::tile_hooks.release) detail::tile_hooks.release(addr_, owner_);
    auto_placed_ = false;
  }
  Tile(unsigned vr, unsigned vc) requires(RowValid_ == -1 && ColValid_ == -1) {
    SetValidRow(vr);
    SetValidCol(vc);
  }
  // One dynamic valid dimension: its value (one constructor, not two constrained twins, which g++ 12 finds
  // ambiguous inside templates).
  explicit Tile(unsigned v) requires((RowValid_ == -1 && ColValid_ > 0) || (RowValid_ > 0 && ColValid_ == -1)) {
    if constexpr (RowValid_ == -1) SetValidRow(v);
    else SetValidCol(v);
  }

  static constexpr int GetValidRow() requires(RowValid_ != -1) { return RowValid_; }
  int GetValidRow() const requires(RowValid_ == -1) { return RowMaskInternal; }
  static constexpr int GetValidCol() requires(ColValid_ != -1) { return ColValid_; }
  int GetValidCol() const requires(ColValid_ == -1) { return ColMaskInternal; }

  void SetValidRow(unsigned v) {
    static_assert(RowValid_ == -1, "Tile::SetValidRow: the row valid dimension is static (RowValid != -1)");
    if (v > unsigned(Rows)) detail::fail("Tile::SetValidRow: valid rows ", v, " exceed the tile's Rows ", Rows);
    RowMaskInternal = int(v);
  }
  void SetValidCol(unsigned v) {
    static_assert(ColValid_ == -1, "Tile::SetValidCol: the column valid dimension is static (ColValid != -1)");
    if (v > unsigned(Cols)) detail::fail("Tile::SetValidCol: valid cols ", v, " exceed the tile's Cols ", Cols);
    ColMaskInternal = int(v);
  }
  void SetValidShape(unsigned vr, unsigned vc) {
    SetValidRow(vr);
    SetValidCol(vc);
  }

  // Host address of element 0 once TASSIGNed (or auto-placed); nullptr before.
  TileDType data() const {
    if (addr_ && detail::tile_hooks.host_access) detail::tile_hooks.host_access(addr_, GetSizeInBytes());
    return reinterpret_cast<TileDType>(addr_);
  }

  // Element offset of (r, c) within the tile (spec §1.2 GetTileOffset), boxed layouts included.
  static constexpr int GetTileOffset(int r, int c) {
    if constexpr (!isBoxedLayout) {
      return r * RowStride + c * ColStride;
    } else {
      // A 1-row tile (GEMV's vector, its MX scales) is contiguous (A5 TExtract.hpp's Rows == 1 path).
      constexpr int fr = Rows == 1 ? 1 : InnerRows, fn = fr * InnerCols;
      int br = r / fr, bc = c / InnerCols, ir = r % fr, ic = c % InnerCols;
      if constexpr (!isRowMajor && isInnerRowMajor) return bc * Rows * InnerCols + r * InnerCols + ic;  // NZ: blocks Rows * C0 apart
      else if constexpr (isInnerColMajor) return (br * (Cols / InnerCols) + bc) * fn + ic * fr + ir;
      else return (br * (Cols / InnerCols) + bc) * fn + ir * InnerCols + ic;
    }
  }

  DType GetValue(int offset) const requires(Loc_ == TileType::Vec) { return data()[offset]; }
  void SetValue(int offset, DType v) requires(Loc_ == TileType::Vec) { data()[offset] = v; }
  DType GetElement(int r, int c) const {
    const int o = GetTileOffset(r, c);
    if constexpr (kNibbles) {
      const std::uint8_t nib = nibble_get(reinterpret_cast<const std::byte*>(data()), o);
      DType v;
      std::memcpy(static_cast<void*>(&v), &nib, 1);
      return v;
    } else {
      return data()[o];
    }
  }
  void SetElement(int r, int c, DType v) {
    const int o = GetTileOffset(r, c);
    if constexpr (kNibbles) {
      std::uint8_t code;
      std::memcpy(&code, static_cast<const void*>(&v), 1);
      nibble_set(reinterpret_cast<std::byte*>(data()), o, code);
    } else {
      data()[o] = v;
    }
  }
  static constexpr std::size_t GetSizeInBytes() { return kNibbles ? std::size_t(Numel + 1) / 2 : std::size_t(Numel) * sizeof(DType); }

  // A2A3's K-alignment flag of float Left tiles (pto-isa aligns K to 16 instead of 8 in L0A with it).
  // It changes where the chip puts bytes, not what TMATMUL computes; kept so kernels that set it compile.
  bool GetKAligned() const { return k_aligned_; }
  void SetKAligned(bool v) { k_aligned_ = v; }

  // The cube's TF32 mode, a control register of the running core that pto-isa sets through a tile: from
  // here on TMATMUL / TGEMV round float inputs to TF32 (A2A3: 11 fraction bits, A5: 10) by CAST_ROUND
  // (half away from zero) or CAST_RINT (half to even) before multiplying; ResetMadMode ends it.
  void SetMadTF32Mode(RoundMode m = RoundMode::CAST_ROUND) const {
    if (m != RoundMode::CAST_ROUND && m != RoundMode::CAST_RINT)
      detail::fail("SetMadTF32Mode: operand tf32TransMode must be RoundMode::CAST_ROUND or RoundMode::CAST_RINT (the "
                   "cube's two TF32 conversions)");
    if (detail::tile_hooks.mad_mode) detail::tile_hooks.mad_mode(int(m));
  }
  void ResetMadMode() const {
    if (detail::tile_hooks.mad_mode) detail::tile_hooks.mad_mode(-1);
  }

  // The type-erased description the runtime and the backends read.
  TileView view() const {
    TileView v;
    v.base = addr_;
    v.offset = offset_;
    v.dtype = dtype_v<DType>;
    v.loc = Loc;
    v.rows = Rows;
    v.cols = Cols;
    v.valid_rows = GetValidRow();
    v.valid_cols = GetValidCol();
    v.row_stride = RowStride;
    v.col_stride = ColStride;
    v.row_major = isRowMajor;
    v.boxed = isBoxedLayout;
    v.inner_rows = std::int16_t(InnerRows);
    v.inner_cols = std::int16_t(InnerCols);
    v.inner_row_major = !isInnerColMajor;
    v.pad = PadVal;
    v.static_valid_rows = RowValid_ != -1;
    v.static_valid_cols = ColValid_ != -1;
    return v;
  }

  // Runtime state. Public, as in pto-isa (RowMaskInternal/ColMaskInternal), so tools can inspect it.
  int RowMaskInternal = RowValid_ == -1 ? Rows_ : RowValid_;
  int ColMaskInternal = ColValid_ == -1 ? Cols_ : ColValid_;
  // mutable: auto mode places a tile at its first use, and sources are often `const Tile&` (PTO's own
  // kernels take them so); placement gives storage, it does not change the tile's value.
  mutable std::byte* addr_ = nullptr;   // set by TASSIGN / auto placement
  mutable std::uint32_t offset_ = 0;    // byte offset inside the buffer
  mutable std::uint64_t owner_ = 0;     // id of the core run whose buffer addr_ points into
  mutable bool auto_placed_ = false;    // addr_ is an auto-mode placement (counted, see TileHooks)
  bool k_aligned_ = false;              // SetKAligned (A2A3 float Left tiles)
};

template <class T> struct is_tile : std::false_type {};
template <TileType L, class E, int R, int C, BLayout B, int RV, int CV, SLayout S, int F, auto P, CompactMode M>
struct is_tile<Tile<L, E, R, C, B, RV, CV, S, F, P, M>> : std::true_type {};
template <class T> concept TileLike = is_tile<std::remove_cvref_t<T>>::value;

// Element offset of (r, c) in a tile of type TileT: the free function pto-isa's CPU simulator offers
// kernels and tests (its tile_offsets.hpp), the same as TileT::GetTileOffset.
template <class TileT>
  requires TileLike<TileT>
constexpr std::size_t GetTileElementOffset(std::size_t r, std::size_t c) {
  return std::size_t(TileT::GetTileOffset(int(r), int(c)));
}

// Aliases pto-isa defines for cube tiles (layouts from spec §1.2, CPU/A5 flavour).
template <class T, int R, int C, int RV = R, int CV = C>
using TileLeft = Tile<TileType::Left, T, R, C, BLayout::ColMajor, RV, CV, SLayout::RowMajor, 512>;
template <class T, int R, int C, int RV = R, int CV = C>
using TileRight = Tile<TileType::Right, T, R, C, BLayout::RowMajor, RV, CV, SLayout::ColMajor, 512>;
template <class T, int R, int C, int RV = R, int CV = C>
using TileAcc = Tile<TileType::Acc, T, R, C, BLayout::ColMajor, RV, CV, SLayout::RowMajor, 1024>;

// The compact flavours: on the chips their L0 bytes are laid out from the valid shape rounded up to
// whole fractals, not from Rows / Cols. Every instruction here addresses tiles by logical (row, column),
// so they compute what the chips compute; the byte placement inside L0 follows the static shape
// (docs/cube.md "Compact tiles").
template <class T, int R, int C, int RV = R, int CV = C>
using TileLeftCompact =
    Tile<TileType::Left, T, R, C, BLayout::ColMajor, RV, CV, SLayout::RowMajor, 512, PadValue::Null, CompactMode::Normal>;
template <class T, int R, int C, int RV = R, int CV = C>
using TileRightCompact =
    Tile<TileType::Right, T, R, C, BLayout::RowMajor, RV, CV, SLayout::ColMajor, 512, PadValue::Null, CompactMode::Normal>;
template <class T, int R, int C, int RV = R, int CV = C>
using TileAccCompact =
    Tile<TileType::Acc, T, R, C, BLayout::ColMajor, RV, CV, SLayout::RowMajor, 1024, PadValue::Null, CompactMode::Normal>;
// A5's MX scale tiles (float8_e8m0_t): a's scales M x ceil(K / 32), ZZ in 16 x 2 fractals; b's
// ceil(K / 32) x N, NN in 2 x 16 fractals. TMOV / TEXTRACT fill them from Mat tiles of the same layout.
template <class T, int R, int C, int RV = R, int CV = C>
using TileLeftScale = Tile<TileType::ScaleLeft, T, R, C, BLayout::RowMajor, RV, CV, SLayout::RowMajor, 32>;
template <class T, int R, int C, int RV = R, int CV = C>
using TileRightScale = Tile<TileType::ScaleRight, T, R, C, BLayout::ColMajor, RV, CV, SLayout::ColMajor, 32>;
template <class T, int R, int C, int RV = R, int CV = C>
using TileLeftScaleCompact =
    Tile<TileType::ScaleLeft, T, R, C, BLayout::RowMajor, RV, CV, SLayout::RowMajor, 32, PadValue::Null, CompactMode::Normal>;
template <class T, int R, int C, int RV = R, int CV = C>
using TileRightScaleCompact =
    Tile<TileType::ScaleRight, T, R, C, BLayout::ColMajor, RV, CV, SLayout::ColMajor, 32, PadValue::Null, CompactMode::Normal>;

}  // namespace pto
