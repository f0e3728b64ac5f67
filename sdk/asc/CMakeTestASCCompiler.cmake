# ascend-sim-asc is a script over the host compiler, which CXX checks.
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
