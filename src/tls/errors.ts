/** A TLS set-up problem a person must fix (a file, a flag, a directory): its message names the file and what to do. */
export class TlsSetupError extends Error {
  override name = 'TlsSetupError';
}
