// expect: pass all five values, or exactly one value per dynamic (-1) dimension
#include <pto/pto-inst.hpp>
using namespace pto;
Shape<1, 1, 1, -1, -1> s(1, 2, 3);
