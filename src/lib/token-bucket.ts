// Token buckets by key: each key holds up to `burst` tokens and gains `perSecond` a second; a take spends one or says
// how long until one is there. Time is what `now()` reads (milliseconds), so a test moves it instead of sleeping.
// A full bucket is the same as none: the map forgets full ones once it grows, so a stream of addresses can't grow it.

export interface Buckets {
  /** Spends a token of `key`: 0 when it had one, else the whole seconds until it will. */
  take(key: string): number;
}

const FORGET_ABOVE = 1024;

export function createBuckets(o: { burst: number; perSecond: number; now: () => number }): Buckets {
  const held = new Map<string, { tokens: number; at: number }>();
  const level = (b: { tokens: number; at: number }, now: number) => Math.min(o.burst, b.tokens + ((now - b.at) / 1000) * o.perSecond);
  return {
    take(key) {
      const now = o.now();
      if (held.size > FORGET_ABOVE) for (const [k, b] of held) if (level(b, now) >= o.burst) held.delete(k);
      const bucket = held.get(key);
      const tokens = bucket ? level(bucket, now) : o.burst;
      if (tokens < 1) return Math.max(1, Math.ceil((1 - tokens) / o.perSecond));
      held.set(key, { tokens: tokens - 1, at: now });
      return 0;
    },
  };
}

/**
 * The key of a client's address: an IPv4 address (IPv4-mapped ones too) as it is, an IPv6 address by its /64, since
 * one host may take any address of its network's /64 (privacy addresses) and so join as many "clients" as it likes.
 */
export function addressKey(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (v4) return v4[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
