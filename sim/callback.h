// Callback<Sig, N>: a move-only function with inline storage for small captures.
//
// The engine runs millions of events per second, and each event and each
// request completion is a closure. std::function copies and allocates for any
// capture over two pointers; Callback keeps up to kInline bytes in place and
// only allocates for larger captures. Not thread-safe; a value type.
#ifndef STORLAB_SIM_CALLBACK_H_
#define STORLAB_SIM_CALLBACK_H_

#include <cassert>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace storlab {

template <typename Sig, size_t N = 48>
class Callback;

// N: bytes of inline storage. Engine events use more (Engine::Event), so an
// event that carries a request's completion and a Status needs no allocation.
template <typename R, typename... Args, size_t N>
class Callback<R(Args...), N> {
 public:
  static constexpr size_t kInline = N;
  // Pointer alignment, not max_align_t's 16: a Completion is then 56
  // bytes, not 64, and a Request 96, so an engine event carrying a request
  // and two more words fits inline (a capture that needs more alignment,
  // rare, goes to the heap).
  static constexpr size_t kAlign = alignof(void*);

  Callback() = default;
  Callback(std::nullptr_t) {}  // NOLINT
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, Callback> &&
                                                    std::is_invocable_r_v<R, F&, Args...>>>
  Callback(F&& f) {  // NOLINT: implicit from lambdas, like std::function
    Construct(std::forward<F>(f));
  }
  Callback(Callback&& o) noexcept : ops_(o.ops_) {
    if (ops_) {
      ops_->move(storage_, o.storage_);
      o.ops_ = nullptr;
    }
  }
  Callback& operator=(Callback&& o) noexcept {
    if (this != &o) {
      Reset();
      ops_ = o.ops_;
      if (ops_) {
        ops_->move(storage_, o.storage_);
        o.ops_ = nullptr;
      }
    }
    return *this;
  }
  Callback(const Callback&) = delete;
  Callback& operator=(const Callback&) = delete;
  ~Callback() { Reset(); }

  explicit operator bool() const { return ops_ != nullptr; }
  // True when the target lives on the heap (its capture did not fit kInline).
  bool allocated() const { return ops_ != nullptr && ops_->heap; }
  R operator()(Args... args) {
    assert(ops_);
    return ops_->call(storage_, std::forward<Args>(args)...);
  }
  void Reset() {
    if (ops_) {
      ops_->destroy(storage_);
      ops_ = nullptr;
    }
  }
  // Replaces the target with `f`, built in place (no temporary Callback to
  // move from: the engine builds each event straight into its slot).
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, Callback> &&
                                                    std::is_invocable_r_v<R, F&, Args...>>>
  void Emplace(F&& f) {
    Reset();
    Construct(std::forward<F>(f));
  }

 private:
  struct Ops {
    R (*call)(void*, Args&&...);
    void (*move)(void* dst, void* src);  // move-construct dst from src, destroy src
    void (*destroy)(void*);
    bool heap;
  };
  // REQUIRES: empty.
  template <typename F>
  void Construct(F&& f) {
    using D = std::decay_t<F>;
    if constexpr (sizeof(D) <= kInline && alignof(D) <= kAlign &&
                  std::is_nothrow_move_constructible_v<D>) {
      new (storage_) D(std::forward<F>(f));
      ops_ = &kInlineOps<D>;
    } else {
      *reinterpret_cast<D**>(storage_) = new D(std::forward<F>(f));
      ops_ = &kHeapOps<D>;
    }
  }
  template <typename D>
  static constexpr Ops kInlineOps = {
      [](void* p, Args&&... a) -> R { return (*static_cast<D*>(p))(std::forward<Args>(a)...); },
      [](void* d, void* s) {
        new (d) D(std::move(*static_cast<D*>(s)));
        static_cast<D*>(s)->~D();
      },
      [](void* p) { static_cast<D*>(p)->~D(); }, false};
  template <typename D>
  static constexpr Ops kHeapOps = {
      [](void* p, Args&&... a) -> R { return (**static_cast<D**>(p))(std::forward<Args>(a)...); },
      [](void* d, void* s) { *static_cast<D**>(d) = *static_cast<D**>(s); },
      [](void* p) { delete *static_cast<D**>(p); }, true};

  alignas(kAlign) unsigned char storage_[kInline];
  const Ops* ops_ = nullptr;
};

}  // namespace storlab

#endif  // STORLAB_SIM_CALLBACK_H_
