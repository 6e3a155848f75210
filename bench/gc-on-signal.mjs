// Preloaded into the service by the memory benchmark only (with --expose-gc): SIGUSR2 runs a full
// garbage collection, so the benchmark can tell memory still held from garbage V8 has not collected yet.
process.on('SIGUSR2', () => globalThis.gc?.());
