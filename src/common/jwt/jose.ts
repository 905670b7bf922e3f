type Jose = typeof import('jose');

let jose: Jose | undefined;

/**
 * `jose`, for ID tokens, device assertions and key thumbprints (the device bearer is jsonwebtoken's),
 * loaded at its first use rather than at boot, where it costs about 100 ms that the CLI and health
 * checks never need.
 */
export function joseLib(): Jose {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
  jose ??= require('jose') as Jose;
  return jose;
}
