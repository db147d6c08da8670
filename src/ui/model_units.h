// The model's size and the file's unit, as the inspector's Model section says them: a character
// in centimetres and one in metres look alike in the viewport (the camera frames either), so the
// panel names the extent in the file's units and, where the format says it, what a unit is.
// Pure formatting into caller buffers (no allocation), for the panel and its tests.
#pragma once

#include <cstddef>
#include <string_view>

#include <glm/vec3.hpp>

namespace sv::ui {

// "metre", "centimetre", "millimetre", "inch", "foot", ... for a common unit (within 0.1%), or
// null for another.
const char* unit_name(double metres_per_unit) noexcept;

// "1.2 x 1.8 x 0.4 units (X, Y, Z)": the extent of the rest pose in the file's units.
void format_size(const glm::vec3& size, char* out, std::size_t n) noexcept;

// The unit and where it comes from, e.g. "centimetre (FBX UnitScaleFactor 1)", "metre (glTF)",
// "metre (COLLADA <unit>, applied on import)", "0.5 m (FBX UnitScaleFactor 50)",
// "unknown (the file does not say)". `path` is the model's (its extension names the format).
void format_unit(double metres_per_unit, std::string_view path, char* out, std::size_t n) noexcept;

// "= 0.012 x 0.018 x 0.004 m": the extent in metres, when the unit is known and not the metre;
// false (and `out` empty) otherwise.
bool format_metres(const glm::vec3& size, double metres_per_unit, char* out,
                   std::size_t n) noexcept;

}  // namespace sv::ui
