// <pto/pto-inst.hpp>: the header PTO kernels include. It forwards to the public headers and defines
// nothing itself (oneTBB habit: old include paths are one-line forwarders).
#pragma once
#include <pto/common/constants.hpp>
#include <pto/isa/global_tensor.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/binary.hpp>
#include <pto/runtime/block.hpp>
#include <pto/runtime/broadcast.hpp>
#include <pto/runtime/data_movement.hpp>
#include <pto/runtime/direct_call.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/kernel.hpp>
#include <pto/runtime/launch.hpp>
#include <pto/runtime/qualifiers.hpp>
#include <pto/runtime/sync.hpp>
#include <pto/runtime/tassign.hpp>
#include <pto/runtime/tile_scalar.hpp>
#include <pto/runtime/trace.hpp>
#include <pto/runtime/unary.hpp>
#include <pto/runtime/reduce.hpp>
#include <pto/runtime/arg_reduce.hpp>
#include <pto/runtime/select.hpp>
#include <pto/runtime/compound.hpp>
#include <pto/runtime/convert.hpp>
#include <pto/runtime/gather.hpp>
#include <pto/runtime/generate.hpp>
#include <pto/runtime/sort.hpp>
