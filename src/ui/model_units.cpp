#include "ui/model_units.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include <glm/vec3.hpp>

namespace sv::ui {
namespace {

// The extension of `path`, lower case, without its dot, into `out` ("" when none).
void lower_extension(std::string_view path, char* out, std::size_t n) {
  out[0] = '\0';
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return;
  std::size_t k = 0;
  for (std::size_t i = dot + 1; i < path.size() && k + 1 < n; ++i)
    out[k++] = static_cast<char>(std::tolower(static_cast<unsigned char>(path[i])));
  out[k] = '\0';
}

bool is(const char* ext, const char* want) { return std::string_view(ext) == want; }

// Three significant figures, but whole numbers from 1000 up: "15100", not "1.51e+04".
void number(double v, char* out, std::size_t n) {
  if (std::abs(v) >= 1000.0 && std::abs(v) < 1e12) {
    std::snprintf(out, n, "%.0f", v);
  } else {
    std::snprintf(out, n, "%.3g", v);
  }
}

void three(const glm::dvec3& v, const char* before, const char* after, char* out, std::size_t n) {
  char x[32], y[32], z[32];
  number(v.x, x, sizeof x);
  number(v.y, y, sizeof y);
  number(v.z, z, sizeof z);
  std::snprintf(out, n, "%s%s x %s x %s%s", before, x, y, z, after);
}

}  // namespace

const char* unit_name(double m) noexcept {
  struct Named {
    double metres;
    const char* name;
  };
  static constexpr Named kUnits[] = {
      {1.0, "metre"},        {0.01, "centimetre"}, {0.001, "millimetre"}, {0.1, "decimetre"},
      {1000.0, "kilometre"}, {0.0254, "inch"},     {0.3048, "foot"},      {0.9144, "yard"},
  };
  if (!(m > 0.0) || !std::isfinite(m)) return nullptr;
  for (const Named& u : kUnits)
    if (std::abs(m / u.metres - 1.0) < 1e-3) return u.name;
  return nullptr;
}

void format_size(const glm::vec3& s, char* out, std::size_t n) noexcept {
  three(glm::dvec3(s), "", " units (X, Y, Z)", out, n);
}

void format_unit(double m, std::string_view path, char* out, std::size_t n) noexcept {
  char ext[16];
  lower_extension(path, ext, sizeof ext);
  if (!(m > 0.0) || !std::isfinite(m)) {
    std::snprintf(out, n, "unknown (the file does not say)");
    return;
  }
  char unit[32];
  if (const char* name = unit_name(m)) {
    std::snprintf(unit, sizeof unit, "%s", name);
  } else {
    std::snprintf(unit, sizeof unit, "%g m", m);
  }
  if (is(ext, "fbx")) {
    std::snprintf(out, n, "%s (FBX UnitScaleFactor %g)", unit, m * 100.0);
  } else if (is(ext, "gltf") || is(ext, "glb")) {
    std::snprintf(out, n, "%s (glTF)", unit);
  } else if (is(ext, "dae")) {
    std::snprintf(out, n, "%s (COLLADA <unit>, applied on import)", unit);
  } else {
    std::snprintf(out, n, "%s", unit);
  }
}

bool format_metres(const glm::vec3& s, double m, char* out, std::size_t n) noexcept {
  out[0] = '\0';
  if (!(m > 0.0) || !std::isfinite(m) || std::abs(m - 1.0) < 1e-9) return false;
  three(glm::dvec3(s) * m, "= ", " m", out, n);
  return true;
}

}  // namespace sv::ui
