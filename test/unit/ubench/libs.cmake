target_link_libraries(unit_ubench PRIVATE phaseprobe_ubench)
# The runner tests drive the real kernel program of this build.
target_compile_definitions(unit_ubench PRIVATE
  PP_UBENCH_KERNELS="${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/phaseprobe-ubench-kernels")
add_dependencies(unit_ubench phaseprobe-ubench-kernels)
