// A kernel stuck in host code (an endless loop between instructions): the host watchdog must end the
// process with the cores' state on stderr and exit status 124. test_guards runs this program.
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

int main() {
  std::vector<float> out(16 * 64, 0.0f);
  launch({.blocks = 2, .watchdog_seconds = 1}, [](__gm__ float* o) {
    using TileF = Tile<TileType::Vec, float, 16, 64>;
    TileF t;
    TASSIGN(t, 0);
    TEXPANDS(t, 1.0f);
    if (get_block_idx() == 1) {
      volatile bool forever = true;
      while (forever) {
      }
    }
    (void)o;
  }, out);
  return 0;  // never reached
}
