#pragma once
/// Resource guard: every large in-memory result asks here before it allocates, so a huge
/// --len or --dim ends in a one-line error instead of the kernel's OOM killer.
#include <cstdint>
#include <string>
#include <string_view>

namespace posenc {

/// The largest single allocation allowed, in bytes: set_memory_limit's value, else half of
/// MemAvailable in /proc/meminfo (4 GiB when that cannot be read).
std::uint64_t memory_limit();
/// Overrides the limit (`--max-memory`); 0 restores the default.
void set_memory_limit(std::uint64_t bytes);
/// True when no --max-memory was given (the limit is half the available memory).
bool memory_limit_is_default();

/// Throws Error when `count` elements of `element_size` bytes (overflow-safe) exceed the limit:
/// "WHAT needs 16 GiB in memory, more than the limit of 3.9 GiB (half the available memory);
/// give --max-memory SIZE to allow it, or ..." with `advice` saying how to stream instead.
void check_memory(std::uint64_t count, std::uint64_t element_size, std::string_view what,
                  std::string_view advice = {});
/// Same for the doubles an analysis holds at once (`doubles`, computed in double precision
/// so that a huge request does not wrap around; saturated).
void check_working_memory(double doubles, std::string_view what, std::string_view advice = {});
/// Same for a rows×cols matrix of doubles.
void check_matrix_memory(std::uint64_t rows, std::uint64_t cols, std::string_view what = {});

/// "512 B", "1.5 KiB", "16 GiB".
std::string format_bytes(double bytes);
/// Parses "4G", "512M", "1.5GiB", "1000000" (bytes); throws Error naming --max-memory.
std::uint64_t parse_bytes(std::string_view text);

}  // namespace posenc
