// expect: TRANDOM: Rounds must be 7 or 10
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, std::uint32_t, 4, 64> d;
  TRandomKey k = {1, 2};
  TRandomCounter c = {0, 0, 0, 0};
  TRANDOM<8>(d, k, c);
}
