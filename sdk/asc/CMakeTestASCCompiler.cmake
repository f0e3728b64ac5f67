# ascend-sim-asc is a script over the host compiler, which CXX checks.
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
# A folder that enables the ASC language alone (project(... LANGUAGES ASC)) gets C++ too: the
# runtime it links is found with it (its dependencies need a C++ compiler).
if(NOT CMAKE_CXX_COMPILER_LOADED)
  enable_language(CXX)
endif()
