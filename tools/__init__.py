"""Desktop tools: replay, emulator, simulator, benchmarks, deploy."""
