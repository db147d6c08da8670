// Stream<T>: a read-only array that either owns its elements (a std::vector) or borrows them from
// memory someone else keeps alive: a model read from a cache entry or from the import worker's
// output points its big arrays into that mapping instead of copying them (io/model_format.h,
// BENCHMARKS.md round 21a), and holds the mapping through `keep` for as long as any array borrows
// from it.
//
// Why borrowing is safe: runtime data is immutable after load (DESIGN.md; ozz's offline/runtime
// split), so a borrowed array is only ever read; the mapping's owner guarantees the bytes do not
// change under it (a sealed memfd, or a cache entry that is only ever replaced by a rename and
// removed by unlinking, never rewritten in place: io/model_cache.h).
//
// Reading is a std::vector's const interface (size, data, operator[], begin/end, span). Writing
// (the importer, group_vertices_by_bone_set, tests building meshes in code) goes through the
// usual vector calls too; each first makes the stream own its elements (a borrowed stream is
// copied then: copy on write), so a write never reaches borrowed memory. A reader that wants no
// copy takes the stream as const (every stage after load does).
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace sv {

template <class T>
class Stream {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;

  Stream() = default;
  Stream(std::vector<T> v) noexcept : owned_(std::move(v)) {}  // NOLINT: a vector is a stream
  Stream(std::initializer_list<T> v) : owned_(v) {}
  Stream(std::size_t n, const T& v) : owned_(n, v) {}
  explicit Stream(std::size_t n) : owned_(n) {}
  template <class It>
  requires(!std::is_integral_v<It>) Stream(It first, It last) : owned_(first, last) {}

  // `view` borrowed, kept alive (and unchanged) by `keep` for as long as this stream or a copy of
  // it lives. An empty view borrows nothing.
  static Stream borrow(std::span<const T> view, std::shared_ptr<const void> keep) noexcept {
    Stream s;
    if (!view.empty()) {
      s.view_ = view.data();
      s.view_size_ = view.size();
      s.keep_ = std::move(keep);
    }
    return s;
  }

  // A copy of a borrowed stream borrows the same elements; a copy of an owning one owns a copy.
  Stream(const Stream&) = default;
  Stream& operator=(const Stream&) = default;
  Stream(Stream&& o) noexcept
      : owned_(std::move(o.owned_)),
        view_(std::exchange(o.view_, nullptr)),
        view_size_(std::exchange(o.view_size_, 0)),
        keep_(std::move(o.keep_)) {}
  Stream& operator=(Stream&& o) noexcept {
    if (this != &o) {
      owned_ = std::move(o.owned_);
      view_ = std::exchange(o.view_, nullptr);
      view_size_ = std::exchange(o.view_size_, 0);
      keep_ = std::move(o.keep_);
    }
    return *this;
  }
  Stream& operator=(std::vector<T> v) noexcept {
    drop_view();
    owned_ = std::move(v);
    return *this;
  }
  Stream& operator=(std::initializer_list<T> v) {
    drop_view();
    owned_.assign(v);
    return *this;
  }

  // Whether the elements are borrowed (see borrow()), for tests and figures.
  bool borrowed() const noexcept { return keep_ != nullptr; }

  // --- reading ---
  std::size_t size() const noexcept { return keep_ ? view_size_ : owned_.size(); }
  bool empty() const noexcept { return size() == 0; }
  const T* data() const noexcept { return keep_ ? view_ : owned_.data(); }
  const T& operator[](std::size_t i) const noexcept { return data()[i]; }
  const T* begin() const noexcept { return data(); }
  const T* end() const noexcept { return data() + size(); }
  const T* cbegin() const noexcept { return begin(); }
  const T* cend() const noexcept { return end(); }
  const T& front() const noexcept { return data()[0]; }
  const T& back() const noexcept { return data()[size() - 1]; }
  operator std::span<const T>() const noexcept { return {data(), size()}; }  // NOLINT
  std::span<const T> span() const noexcept { return {data(), size()}; }
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }
  operator std::vector<T>() const { return to_vector(); }  // NOLINT: a copy, asked for by type

  // --- writing: each makes the stream own its elements first ---
  // The owned vector itself, for a writer that needs a std::vector (bone_set_order).
  std::vector<T>& edit() {
    if (keep_) {
      std::vector<T> copy(view_, view_ + view_size_);
      drop_view();
      owned_ = std::move(copy);
    }
    return owned_;
  }
  T* data() { return edit().data(); }
  T& operator[](std::size_t i) { return edit()[i]; }
  T* begin() { return edit().data(); }
  T* end() {
    std::vector<T>& v = edit();
    return v.data() + v.size();
  }
  T& front() { return edit().front(); }
  T& back() { return edit().back(); }
  void push_back(const T& v) { edit().push_back(v); }
  void push_back(T&& v) { edit().push_back(std::move(v)); }
  template <class... A>
  T& emplace_back(A&&... a) {
    return edit().emplace_back(std::forward<A>(a)...);
  }
  void pop_back() { edit().pop_back(); }
  void resize(std::size_t n) { edit().resize(n); }
  void resize(std::size_t n, const T& v) { edit().resize(n, v); }
  void reserve(std::size_t n) { edit().reserve(n); }
  void clear() noexcept {
    drop_view();
    owned_.clear();
  }
  void assign(std::size_t n, const T& v) {
    drop_view();
    owned_.assign(n, v);
  }
  template <class It>
  requires(!std::is_integral_v<It>) void assign(It first, It last) {
    std::vector<T> v(first, last);  // `first` may point into this stream
    drop_view();
    owned_ = std::move(v);
  }
  void assign(std::initializer_list<T> v) {
    drop_view();
    owned_.assign(v);
  }
  template <class It>
  T* insert(const T* pos, It first, It last) {
    const auto at = pos - static_cast<const Stream&>(*this).data();
    std::vector<T>& v = edit();
    return &*v.insert(v.begin() + at, first, last);
  }
  T* insert(const T* pos, std::initializer_list<T> x) { return insert(pos, x.begin(), x.end()); }
  T* insert(const T* pos, const T& x) {
    const auto at = pos - static_cast<const Stream&>(*this).data();
    std::vector<T>& v = edit();
    return &*v.insert(v.begin() + at, x);
  }
  T* erase(const T* first, const T* last) {
    const auto at = first - static_cast<const Stream&>(*this).data();
    const auto n = last - first;
    std::vector<T>& v = edit();
    return v.data() + (v.erase(v.begin() + at, v.begin() + at + n) - v.begin());
  }
  void shrink_to_fit() { edit().shrink_to_fit(); }
  std::size_t capacity() const noexcept { return keep_ ? view_size_ : owned_.capacity(); }

  friend bool operator==(const Stream& a, const Stream& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator==(const Stream& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  void drop_view() noexcept {
    view_ = nullptr;
    view_size_ = 0;
    keep_.reset();
  }

  std::vector<T> owned_;  // the elements, unless borrowed
  const T* view_ = nullptr;
  std::size_t view_size_ = 0;
  std::shared_ptr<const void> keep_;  // non-null exactly when borrowed
};

}  // namespace sv
