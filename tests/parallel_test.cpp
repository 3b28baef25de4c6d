#include "posenc/parallel.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

TEST_CASE("pipeline hands every block over in order whatever the thread count", "[parallel]") {
  for (const unsigned n : {1u, 2u, 4u, 7u}) {
    posenc::set_threads(n);
    std::vector<std::size_t> seen;
    posenc::pipeline<std::vector<std::size_t>>(
        1000, 37,
        [](std::size_t first, std::size_t count, std::vector<std::size_t>& b) {
          b.clear();
          for (std::size_t r = first; r < first + count; ++r) b.push_back(r * r);
        },
        [&](std::size_t, std::size_t, const std::vector<std::size_t>& b) { seen.insert(seen.end(), b.begin(), b.end()); });
    REQUIRE(seen.size() == 1000);
    for (std::size_t r = 0; r < 1000; ++r) CHECK(seen[r] == r * r);
  }
  posenc::set_threads(0);
}

TEST_CASE("pipeline rethrows a worker's exception and stops", "[parallel]") {
  posenc::set_threads(3);
  const auto run = [] {
    posenc::pipeline<int>(
        100, 1,
        [](std::size_t first, std::size_t, int&) {
          if (first == 42) throw std::runtime_error("block 42");
        },
        [](std::size_t, std::size_t, const int&) {});
  };
  CHECK_THROWS_WITH(run(), "block 42");
  posenc::set_threads(0);
}

TEST_CASE("progress is reported up to the total", "[parallel]") {
  std::size_t last = 0, total = 0;
  posenc::set_progress([&](std::size_t done, std::size_t all) {
    CHECK(done >= last);
    last = done;
    total = all;
  });
  posenc::pipeline<int>(10, 3, [](std::size_t, std::size_t, int&) {}, [](std::size_t, std::size_t, const int&) {});
  posenc::set_progress({});
  CHECK(last == 10);
  CHECK(total == 10);
}
