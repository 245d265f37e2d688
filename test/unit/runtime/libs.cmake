# unit_runtime tests the runtime's internal units through the static library.
target_link_libraries(unit_runtime PRIVATE phaseprobe_rt_static nlohmann_json::nlohmann_json
                      PkgConfig::HWLOC Threads::Threads)
target_include_directories(unit_runtime PRIVATE ${PROJECT_SOURCE_DIR}/runtime/src)
