// pto_chevron IN OUT: writes IN with its `kernel<<<...>>>(args)` launches rewritten for pto-runtime
// (chevron_rewrite.hpp). Run by pto_add_mix_kernel on every source; a source without chevrons is copied
// with a #line directive.
#include <fstream>
#include <iostream>
#include <sstream>

#include "chevron_rewrite.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: pto_chevron IN OUT\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "pto_chevron: cannot read " << argv[1] << "\n";
    return 1;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::ofstream o(argv[2], std::ios::binary);
  o << pto_tools::rewrite_chevrons(text.str(), argv[1]);
  if (!o) {
    std::cerr << "pto_chevron: cannot write " << argv[2] << "\n";
    return 1;
  }
  return 0;
}
