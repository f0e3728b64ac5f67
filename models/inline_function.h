// A move-only void() callable that stores its target inline when it fits, so that handing an
// instruction's effect to a pipe allocates nothing (std::function keeps only 16 bytes inline).
// A larger target still works; it is kept on the heap.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace ascend::model {

template <size_t N>
class InlineFunction {
 public:
  InlineFunction() = default;
  InlineFunction(std::nullptr_t) {}  // NOLINT: as std::function
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, InlineFunction> &&
                                              !std::is_same_v<std::decay_t<F>, std::nullptr_t>>>
  InlineFunction(F&& f) {  // NOLINT: as std::function
    using T = std::decay_t<F>;
    if constexpr (kInline<T>) {
      new (buf_) T(std::forward<F>(f));
    } else {
      *reinterpret_cast<T**>(buf_) = new T(std::forward<F>(f));
    }
    ops_ = &kOps<T>;
  }
  InlineFunction(InlineFunction&& o) noexcept { take(o); }
  InlineFunction& operator=(InlineFunction&& o) noexcept {
    if (this != &o) {
      reset();
      take(o);
    }
    return *this;
  }
  InlineFunction& operator=(std::nullptr_t) {
    reset();
    return *this;
  }
  InlineFunction(const InlineFunction&) = delete;
  InlineFunction& operator=(const InlineFunction&) = delete;
  ~InlineFunction() { reset(); }

  explicit operator bool() const { return ops_ != nullptr; }
  void operator()() { ops_->call(buf_); }

 private:
  struct Ops {
    void (*call)(void*);
    void (*move)(void* to, void* from);  // leaves `from` destroyed
    void (*destroy)(void*);
  };
  template <class T>
  static constexpr bool kInline =
      sizeof(T) <= N &&
      alignof(T) <= alignof(std::max_align_t) && std::is_nothrow_move_constructible_v<T>;

 public:
  // Whether a callable of type F is held inline, without an allocation.
  template <class F>
  static constexpr bool holds_inline = kInline<std::decay_t<F>>;

 private:
  template <class T>
  static void call(void* p) {
    if constexpr (kInline<T>) {
      (*static_cast<T*>(p))();
    } else {
      (**static_cast<T**>(p))();
    }
  }
  template <class T>
  static void move(void* to, void* from) {
    if constexpr (kInline<T>) {
      new (to) T(std::move(*static_cast<T*>(from)));
      static_cast<T*>(from)->~T();
    } else {
      *static_cast<T**>(to) = *static_cast<T**>(from);
    }
  }
  template <class T>
  static void destroy(void* p) {
    if constexpr (kInline<T>) {
      static_cast<T*>(p)->~T();
    } else {
      delete *static_cast<T**>(p);
    }
  }
  template <class T>
  static constexpr Ops kOps = {&call<T>, &move<T>, &destroy<T>};

  void take(InlineFunction& o) {
    if (!o.ops_) return;
    o.ops_->move(buf_, o.buf_);
    ops_ = o.ops_;
    o.ops_ = nullptr;
  }
  void reset() {
    if (ops_) ops_->destroy(buf_);
    ops_ = nullptr;
  }

  alignas(std::max_align_t) unsigned char buf_[N];
  const Ops* ops_ = nullptr;
};

}  // namespace ascend::model
