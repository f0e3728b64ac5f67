# find_package(ASC): the ASC language of Ascend C's single-source flow (.asc files, kernels
# launched with <<<blockDim, l2ctrl, stream>>>, the ACL runtime on the host), built for and run on
# ascend-sim's simulated die. Then project(... LANGUAGES ASC CXX) finds the language here.
#   CMAKE_ASC_RUN_MODE       npu (default), sim or cpu: all three build the program for ascend-sim
#                            (cpu also defines ASCENDC_CPU_DEBUG, as the vendor's CPU-debug build)
#   CMAKE_ASC_ARCHITECTURES  dav-2201 (Atlas A2/A3); another is a configure error
# The libraries a sample links (tiling_api, register, platform, ascendcl, ...) are targets that
# bring in ascend-sim's runtime, so the sample's link line stays as it is.
if(_ASC_SIM_LOADED)
  return()
endif()
set(_ASC_SIM_LOADED TRUE)
# ascend_sim's own package needs a compiled language (Threads), which a sample enables only after
# find_package(ASC), in project(): it is found at the end of the folder's CMakeLists.txt, before
# the targets that link it are generated.
set(_ASC_SIM_PACKAGE_DIR ${CMAKE_CURRENT_LIST_DIR}/../ascend_sim)
macro(_asc_sim_find_runtime)
  if(NOT TARGET ascend_sim::sdk_runtime)
    find_package(ascend_sim REQUIRED CONFIG HINTS ${_ASC_SIM_PACKAGE_DIR})
  endif()
endmacro()
if(CMAKE_CXX_COMPILER_LOADED)
  _asc_sim_find_runtime()
else()
  cmake_language(DEFER CALL _asc_sim_find_runtime)
endif()
list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR})
get_filename_component(_ASC_SIM_PREFIX ${CMAKE_CURRENT_LIST_DIR}/../../.. ABSOLUTE)
set(ASC_SIM_COMPILER ${_ASC_SIM_PREFIX}/bin/ascend-sim-asc)

foreach(lib tiling_api register platform unified_dlog graph_base ascendcl runtime error_manager
            profapi ge_common_base mmpa c_sec ascend_dump nnopbase opapi acl_rt ascendalog)
  if(NOT TARGET ${lib})
    add_library(${lib} INTERFACE IMPORTED)
    set_target_properties(${lib} PROPERTIES INTERFACE_LINK_LIBRARIES ascend_sim::sdk_runtime)
  endif()
endforeach()
set(ASC_FOUND TRUE)
