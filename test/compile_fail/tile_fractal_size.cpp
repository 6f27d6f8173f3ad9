// expect: SFractalSize must be 512, 1024 or 32
#include <pto/pto-inst.hpp>
using namespace pto;
Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, 16, 16, SLayout::NoneBox, 256> t;
