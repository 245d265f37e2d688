# The stream analysis is a self-contained unit of the runtime: the tests
# compile it directly instead of linking the whole runtime (which needs the
# phase bookkeeping and hwloc).
target_sources(unit_streams PRIVATE ${PROJECT_SOURCE_DIR}/runtime/src/streams.cpp
                                    ${PROJECT_SOURCE_DIR}/runtime/src/page_touches.cpp
                                    ${PROJECT_SOURCE_DIR}/runtime/src/rt_memory.cpp)
target_include_directories(unit_streams PRIVATE ${PROJECT_SOURCE_DIR}/runtime/src
                                                ${PROJECT_SOURCE_DIR}/runtime/include)
target_link_libraries(unit_streams PRIVATE phaseprobe_core)
