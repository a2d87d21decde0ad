#include <atomic>
#include <thread>
#include <vector>
#include <gtest/gtest.h>
TEST(Smoke, Threads) {
  std::atomic<int> n{0};
  std::vector<std::thread> ts;
  for (int i = 0; i < 4; ++i) ts.emplace_back([&] { for (int k = 0; k < 100000; ++k) n.fetch_add(1); });
  for (auto& t : ts) t.join();
  EXPECT_EQ(n.load(), 400000);
}
