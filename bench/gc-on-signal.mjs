// Preloaded (`node --expose-gc --import ./bench/gc-on-signal.mjs ...`) into a server that bench/peer.mjs measures:
// SIGUSR2 runs a full GC, so that the RSS read from /proc afterwards holds what is stored, not the garbage of making it.
// The same file goes into both servers of a comparison, so neither pays for it alone.
process.on('SIGUSR2', () => globalThis.gc?.());
