// A core's on-chip buffers, one per TileType that has one on the target (capacities: isa/buffers.hpp).
// UB is allocated with the core (the vector paths address it); the others when a tile is first placed
// in them, so a vector-only kernel pays for 192 KiB, not for 1 MiB of cube buffers. Bytes start as
// `fill` (zero by default, as on pto-isa's CPU simulator). Each buffer is one allocation that never moves.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include <pto/isa/buffers.hpp>

namespace pto::detail {

class BufferSet {
public:
  explicit BufferSet(Target target, std::uint8_t fill = 0) : target_(target), fill_(fill) { base(TileType::Vec); }

  Target target() const { return target_; }
  // Capacity of `loc`'s buffer on the target (0: no such buffer there).
  std::size_t bytes(TileType loc) const { return buffer_capacity(target_, loc); }
  // The buffer's first byte (64-byte aligned), allocating it on first use; null when it has no bytes.
  std::byte* base(TileType loc) {
    Buffer& b = buffers_[std::size_t(loc)];
    if (!b.storage && bytes(loc) > 0) {
      b.storage = std::make_unique<std::byte[]>(bytes(loc) + 64);  // value-initialised: zero
      b.base = reinterpret_cast<std::byte*>((reinterpret_cast<std::uintptr_t>(b.storage.get()) + 63) & ~std::uintptr_t(63));
      if (fill_) std::memset(b.base, fill_, bytes(loc));
    }
    return b.base;
  }
  std::byte* ub() const { return buffers_[0].base; }
  std::size_t ub_bytes() const { return bytes(TileType::Vec); }

  // Which allocated buffer holds [p, p + n) entirely, and at what offset; Memory::None if none does.
  struct Place {
    Memory memory = Memory::None;
    std::size_t offset = 0;
  };
  Place locate(const void* p, std::size_t n = 1) const {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
      const auto lo = reinterpret_cast<std::uintptr_t>(buffers_[i].base);
      if (lo && a >= lo && a + n <= lo + bytes(TileType(i))) return {memory_of(TileType(i)), a - lo};
    }
    return {};
  }
  // The first byte of an allocated buffer, by Memory (null for GM and for a buffer not allocated).
  const std::byte* base_of(Memory m) const {
    for (std::size_t i = 0; i < buffers_.size(); ++i)
      if (memory_of(TileType(i)) == m) return buffers_[i].base;
    return nullptr;
  }

private:
  struct Buffer {
    std::unique_ptr<std::byte[]> storage;
    std::byte* base = nullptr;
  };
  Target target_;
  std::uint8_t fill_;
  std::array<Buffer, std::size_t(TileType::Ctrl) + 1> buffers_{};
};

}  // namespace pto::detail
