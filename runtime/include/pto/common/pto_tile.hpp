// <pto/common/pto_tile.hpp>: pto-isa's path for Tile and its aliases. A forwarder.
#pragma once
#include <pto/common/type.hpp>
#include <pto/isa/tile.hpp>
