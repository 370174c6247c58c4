// The server name (SNI) of a TLS ClientHello, read from the first bytes of a tunnel before any TLS is set up, so a
// hello without one can be closed with a message that says so (Node's TLS server would answer it with no certificate
// and a bare handshake failure).

export type Hello = { kind: 'more' } | { kind: 'not-tls' } | { kind: 'hello'; serverName: string | null };

const HANDSHAKE = 0x16;
const CLIENT_HELLO = 0x01;
const SERVER_NAME = 0x0000;
const HOST_NAME = 0x00;

/** Reads the ClientHello at the start of `buf`: 'more' while it is incomplete, the SNI host name or null when none. */
export function readHello(buf: Buffer): Hello {
  if (buf.length < 1) return { kind: 'more' };
  if (buf[0] !== HANDSHAKE) return { kind: 'not-tls' };
  if (buf.length < 9) return { kind: 'more' };
  const recordEnd = 5 + buf.readUInt16BE(3);
  if (buf[5] !== CLIENT_HELLO) return { kind: 'not-tls' };
  // The hello is read from its first record only (every client sends SNI there; a hello split over records is rare).
  const end = Math.min(recordEnd, 9 + buf.readUIntBE(6, 3));
  if (buf.length < end) return { kind: 'more' };
  let at = 9 + 2 + 32; // version, random
  const skip = (lengthBytes: number) => {
    if (at + lengthBytes > end) return false;
    at += lengthBytes + buf.readUIntBE(at, lengthBytes);
    return at <= end;
  };
  if (!skip(1) || !skip(2) || !skip(1)) return { kind: 'hello', serverName: null }; // session id, suites, compression
  if (at + 2 > end) return { kind: 'hello', serverName: null };
  const extEnd = Math.min(end, at + 2 + buf.readUInt16BE(at));
  at += 2;
  while (at + 4 <= extEnd) {
    const type = buf.readUInt16BE(at);
    const len = buf.readUInt16BE(at + 2);
    at += 4;
    if (type === SERVER_NAME && at + 2 <= extEnd) {
      let p = at + 2;
      const listEnd = Math.min(extEnd, p + buf.readUInt16BE(at));
      while (p + 3 <= listEnd) {
        const nameType = buf[p]!;
        const nameLen = buf.readUInt16BE(p + 1);
        p += 3;
        if (nameType === HOST_NAME && p + nameLen <= listEnd) return { kind: 'hello', serverName: buf.toString('latin1', p, p + nameLen).toLowerCase() };
        p += nameLen;
      }
    }
    at += len;
  }
  return { kind: 'hello', serverName: null };
}
