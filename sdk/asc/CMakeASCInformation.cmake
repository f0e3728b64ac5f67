# How CMake compiles and links the ASC language on ascend-sim: ascend-sim-asc compiles (the
# launches rewritten, the host compiler behind it) and links; every target of the project links
# ascend-sim's runtime (ascend_sim::sdk_runtime), as the vendor's flow links its runtime.
include(CMakeCommonLanguageInclude)
set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_INCLUDE_SYSTEM_FLAG_ASC "-isystem ")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC "-fPIC")
set(CMAKE_ASC_COMPILE_OPTIONS_PIE "-fPIE")
if(NOT CMAKE_ASC_STANDARD)
  set(CMAKE_ASC_STANDARD ${CMAKE_ASC_STANDARD_DEFAULT})
endif()
set(CMAKE_ASC_FLAGS_DEBUG_INIT "-O0 -g")
set(CMAKE_ASC_FLAGS_RELEASE_INIT "-O3 -DNDEBUG")
set(CMAKE_ASC_FLAGS_INIT "$ENV{ASCFLAGS} ${CMAKE_ASC_FLAGS_INIT}")
cmake_initialize_per_config_variable(CMAKE_ASC_FLAGS "Flags used by the ASC compiler")

if(NOT CMAKE_ASC_RUN_MODE)
  set(CMAKE_ASC_RUN_MODE npu)
endif()
if(NOT CMAKE_ASC_RUN_MODE MATCHES "^(npu|cpu|sim)$")
  message(FATAL_ERROR "ASC: CMAKE_ASC_RUN_MODE='${CMAKE_ASC_RUN_MODE}': the run modes are npu, cpu, sim")
endif()
if(NOT CMAKE_ASC_ARCHITECTURES)
  set(CMAKE_ASC_ARCHITECTURES dav-2201)
endif()
if(NOT CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201")
  message(FATAL_ERROR "ASC: CMAKE_ASC_ARCHITECTURES='${CMAKE_ASC_ARCHITECTURES}' is not modelled: "
                      "ascend-sim simulates dav-2201 (Atlas A2/A3) only")
endif()
string(APPEND CMAKE_ASC_FLAGS " --npu-arch=${CMAKE_ASC_ARCHITECTURES}")
if(CMAKE_ASC_RUN_MODE STREQUAL "npu")
  message(STATUS "ASC: run mode npu: there is no NPU here; the program runs on ascend-sim's "
                 "simulated die (${CMAKE_ASC_ARCHITECTURES})")
elseif(CMAKE_ASC_RUN_MODE STREQUAL "sim")
  message(STATUS "ASC: run mode sim: the program runs on ascend-sim's simulated die "
                 "(${CMAKE_ASC_ARCHITECTURES})")
else()
  message(STATUS "ASC: run mode cpu: ASCENDC_CPU_DEBUG defined; the program runs on ascend-sim's "
                 "simulated die (${CMAKE_ASC_ARCHITECTURES})")
endif()

set(_ASC_DRIVER "<CMAKE_ASC_COMPILER> --host-cxx=${CMAKE_ASC_HOST_COMPILER} --run-mode=${CMAKE_ASC_RUN_MODE}")
set(CMAKE_ASC_COMPILE_OBJECT
    "${_ASC_DRIVER} <DEFINES> <INCLUDES> -std=c++${CMAKE_ASC_STANDARD} <FLAGS> -o <OBJECT> -c <SOURCE>")
set(CMAKE_ASC_LINK_EXECUTABLE
    "${_ASC_DRIVER} <FLAGS> <CMAKE_ASC_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS "-shared")
set(CMAKE_ASC_CREATE_SHARED_LIBRARY
    "${_ASC_DRIVER} <CMAKE_SHARED_LIBRARY_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
set(CMAKE_ASC_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_ASC_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_ASC_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")
set(CMAKE_DEPFILE_FLAGS_ASC "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
if(CMAKE_GENERATOR MATCHES "Makefiles")
  set(CMAKE_ASC_DEPFILE_FORMAT gcc)
  set(CMAKE_ASC_DEPENDS_USE_COMPILER TRUE)
endif()
link_libraries(ascend_sim::sdk_runtime)
set(CMAKE_ASC_INFORMATION_LOADED 1)
