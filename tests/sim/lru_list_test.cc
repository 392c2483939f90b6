// LruList: the order from cold to hot after pushes, touches and unlinks;
// size() and the links kept exact.
#include "sim/lru_list.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace storlab {
namespace lru_list_test {

struct Entry {
  uint64_t key = 0;
  LruHook<Entry> hook;
};
using List = LruList<Entry, &Entry::hook>;

// The keys from the cold end to the hot end, checked against a walk the
// other way so both directions of links agree.
std::vector<uint64_t> Order(const List& l) {
  std::vector<uint64_t> up, down;
  for (const Entry& e : l) up.push_back(e.key);
  for (const Entry* e = l.Hottest(); e; e = List::Colder(*e)) down.insert(down.begin(), e->key);
  EXPECT_EQ(up, down);
  EXPECT_EQ(up.size(), l.size());
  return up;
}

std::vector<Entry> Entries(size_t n) {
  std::vector<Entry> v(n);
  for (size_t i = 0; i < n; ++i) v[i].key = i;
  return v;
}

TEST(LruListTest, PushHotAppendsAndTouchMovesToTheHotEnd) {
  auto e = Entries(4);
  List l;
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.Coldest(), nullptr);
  for (Entry& x : e) l.PushHot(x);
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{0, 1, 2, 3}));
  l.PushHot(e[0]);  // a hit on the coldest
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{1, 2, 3, 0}));
  l.PushHot(e[3]);  // a hit in the middle
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{1, 2, 0, 3}));
  l.PushHot(e[3]);  // already the hottest
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{1, 2, 0, 3}));
  EXPECT_EQ(l.Coldest(), &e[1]);
  EXPECT_EQ(l.Hottest(), &e[3]);
}

TEST(LruListTest, PushColdMakesTheNextVictim) {
  auto e = Entries(3);
  List l;
  l.PushCold(e[0]);
  l.PushHot(e[1]);
  l.PushCold(e[2]);
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{2, 0, 1}));
  l.PushCold(e[1]);  // linked: moves
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{1, 2, 0}));
  l.PushCold(e[1]);  // already the coldest
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{1, 2, 0}));
}

TEST(LruListTest, UnlinkAtEitherEndAndInTheMiddle) {
  auto e = Entries(5);
  List l;
  for (Entry& x : e) l.PushHot(x);
  l.Unlink(e[2]);
  EXPECT_FALSE(List::Linked(e[2]));
  EXPECT_EQ(List::Colder(e[2]), nullptr);
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{0, 1, 3, 4}));
  l.Unlink(e[0]);
  l.Unlink(e[4]);
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{1, 3}));
  l.Unlink(e[1]);
  l.Unlink(e[3]);
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.Hottest(), nullptr);
  l.PushHot(e[2]);  // an unlinked entry links again
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{2}));
}

TEST(LruListTest, UnlinkWhileWalkingFromTheColdEnd) {
  auto e = Entries(6);
  List l;
  for (Entry& x : e) l.PushHot(x);
  for (Entry* x = l.Coldest(); x;) {
    Entry* next = List::Warmer(*x);
    if (x->key % 2 == 0) l.Unlink(*x);
    x = next;
  }
  EXPECT_EQ(Order(l), (std::vector<uint64_t>{1, 3, 5}));
}

TEST(LruListTest, ClearForgetsTheOrder) {
  auto e = Entries(3);
  List l;
  for (Entry& x : e) l.PushHot(x);
  l.Clear();
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.begin(), l.end());
}

}  // namespace lru_list_test
}  // namespace storlab
