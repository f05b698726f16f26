# Installs libmcb, its public headers and a CMake package config, so that
# an application can find_package(mcb) and call the algorithms directly.
include(CMakePackageConfigHelpers)

install(TARGETS mcb EXPORT mcbTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY src/core/mcb/ src/alltoall/mcb/ src/allgather/mcb/ src/allreduce/mcb/ src/reduce_scatter/mcb/ src/rooted/mcb/ src/pingpong/mcb/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mcb
        FILES_MATCHING PATTERN "*.hpp")
install(EXPORT mcbTargets NAMESPACE mcb:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcb)
configure_package_config_file(cmake/mcbConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/mcbConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcb)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/mcbConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/mcbConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/mcbConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcb)
