# layoutConfig.cmake: the CMake package of an installed liblayout.
#
#   find_package(layout CONFIG REQUIRED)        # or find_package(layout 0.1 CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE layout::layout)          # static (default)
#   target_link_libraries(app PRIVATE layout::layout_shared)   # shared
#
# Installed by liblayout's `make install` as PREFIX/lib/cmake/layout/; the
# library itself is built by its Makefile, CMake only consumes it.  The prefix
# is computed from this file's location, so an installed tree can be moved or
# copied (relocatable).  Defines layout_VERSION, layout_INCLUDE_DIR and the
# imported targets above, each with the include directory; the static one
# also carries what the archive needs and, unlike the shared library, does
# not record: -lm and the threads library (pthread_create: the threaded
# layout search; Threads::Threads, found here).  layout.pc's Libs.private
# says the same.

get_filename_component(_layout_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

set(layout_INCLUDE_DIR "${_layout_prefix}/include")
set(_layout_static "${_layout_prefix}/lib/liblayout.a")
# The shared library by its SONAME (make install: liblayout.so.0 ->
# liblayout.so.X.Y.Z, and the link liblayout.so -> liblayout.so.0).
set(_layout_shared "${_layout_prefix}/lib/liblayout.so.0")

if(NOT EXISTS "${layout_INCLUDE_DIR}/layout.h" OR NOT EXISTS "${_layout_static}")
    set(layout_FOUND FALSE)
    set(layout_NOT_FOUND_MESSAGE
        "liblayout: ${layout_INCLUDE_DIR}/layout.h or ${_layout_static} is missing (broken install under ${_layout_prefix})")
    unset(_layout_prefix)
    unset(_layout_static)
    unset(_layout_shared)
    return()
endif()

include(CMakeFindDependencyMacro)
find_dependency(Threads)

if(NOT TARGET layout::layout)
    add_library(layout::layout STATIC IMPORTED)
    set_target_properties(layout::layout PROPERTIES
        IMPORTED_LOCATION "${_layout_static}"
        IMPORTED_LINK_INTERFACE_LANGUAGES "C"
        INTERFACE_INCLUDE_DIRECTORIES "${layout_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "m;Threads::Threads")
endif()

if(NOT TARGET layout::layout_shared AND EXISTS "${_layout_shared}")
    add_library(layout::layout_shared SHARED IMPORTED)
    # The library carries the SONAME liblayout.so.0: an executable linked
    # against it records that name (found at run time through the RPATH
    # CMake sets, or the loader's path), not this absolute path.
    set_target_properties(layout::layout_shared PROPERTIES
        IMPORTED_LOCATION "${_layout_shared}"
        IMPORTED_SONAME "liblayout.so.0"
        INTERFACE_INCLUDE_DIRECTORIES "${layout_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "m")
endif()

unset(_layout_prefix)
unset(_layout_static)
unset(_layout_shared)
