// <pto/common/type.hpp>: pto-isa's path for the enums, element types and qualifiers kernels spell
// (TileType, BLayout, PadValue, the *Algorithm enums, half, AICORE, PTO_INTERNAL, ...). A forwarder.
#pragma once
#include <pto/isa/dtype.hpp>
#include <pto/isa/enums.hpp>
#include <pto/runtime/qualifiers.hpp>
