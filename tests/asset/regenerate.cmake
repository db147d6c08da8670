# ctest script: runs the default-asset generator into the build folder and fails unless its
# output is byte-for-byte the checked-in assets/default.glb.
#   cmake -DGENERATOR=<make_default_asset> -DOUT=<build>/default.glb -DREF=<src>/assets/default.glb -P regenerate.cmake
execute_process(COMMAND "${GENERATOR}" "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GENERATOR} failed (${rc})")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}" "${REF}" RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  file(SIZE "${OUT}" out_size)
  file(SIZE "${REF}" ref_size)
  message(FATAL_ERROR "${OUT} (${out_size} bytes) differs from ${REF} (${ref_size} bytes). "
    "If the generator changed on purpose, rebuild the asset: ${GENERATOR} ${REF}")
endif()
message(STATUS "${OUT} is identical to ${REF}")
