// Compiles the tests' shared precompiled header once (sv_test_pch in tests/CMakeLists.txt);
// every test target reuses it.
