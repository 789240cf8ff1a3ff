// A setting that cannot work (an unknown database scheme, a port that is not a port).
// The CLI reports it in one line and exits 2, like a usage error: nothing was touched.
export class ConfigError extends Error {}
