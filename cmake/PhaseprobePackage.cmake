# Installs the CMake package (find_package(phaseprobe)) and the docs that go with
# an installation. The config file locates everything relative to itself, so an
# installed tree can be moved.
include(CMakePackageConfigHelpers)
set(PP_PKG_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/phaseprobe)
file(RELATIVE_PATH PP_PREFIX_FROM_PKG ${CMAKE_INSTALL_PREFIX}/${PP_PKG_DIR} ${CMAKE_INSTALL_PREFIX})
configure_file(${CMAKE_CURRENT_LIST_DIR}/phaseprobeConfig.cmake.in
               ${PROJECT_BINARY_DIR}/pkg/phaseprobeConfig.cmake @ONLY)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pkg/phaseprobeConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pkg/phaseprobeConfig.cmake
              ${PROJECT_BINARY_DIR}/pkg/phaseprobeConfigVersion.cmake
        DESTINATION ${PP_PKG_DIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} OPTIONAL)
