// Where deliveries may go. An admin points a webhook at any URL, and the server
// then makes requests from inside the network: without a guard a webhook could
// probe loopback services, cloud metadata (169.254.169.254) or the private network
// (SSRF). Private, loopback, link-local and other special addresses are refused
// unless PROMPTD_WEBHOOK_ALLOW_PRIVATE=1. The check runs on the URL at save time and
// again on every resolved address at connect time (DNS can change: rebinding).
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64],
  // local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the operator's prefix
  ['64:ff9b:1::', 48],
] as const) blocked.addSubnet(net, bits, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (already validated by isIP). */
function groupsOf(ip: string): number[] {
  // A dotted IPv4 tail (::ffff:127.0.0.1) becomes its two groups; a zone id (%eth0) goes.
  const s = ip.replace(/%.*$/, '').replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const [head = '', tail] = s.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * IPv4 addresses an IPv6 address carries, in every form that reaches them: IPv4-compatible
 * (::a.b.c.d), mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96),
 * 6to4 (2002:AABB:CCDD::) and Teredo (server and client). The URL parser rewrites the
 * dotted forms to hex ([::7f00:1]), so the groups are compared, not the spelling.
 */
function embeddedV4(ip: string): string[] {
  const g = groupsOf(ip);
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const out: string[] = [];
  if (zero(0, 5) && (g[5] === 0 || g[5] === 0xffff)) out.push(v4Of(g[6]!, g[7]!));
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) out.push(v4Of(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) out.push(v4Of(g[6]!, g[7]!));
  if (g[0] === 0x2002) out.push(v4Of(g[1]!, g[2]!));
  if (g[0] === 0x2001 && g[1] === 0) out.push(v4Of(g[2]!, g[3]!), v4Of(~g[6]! & 0xffff, ~g[7]! & 0xffff));
  return out;
}

/** True for loopback, private, link-local, multicast and reserved addresses. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    return blocked.check(ip, 'ipv6') || embeddedV4(ip).some((v4) => blocked.check(v4, 'ipv4'));
  }
  return false;
}

const hostOf = (u: URL) => u.hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** Why `raw` cannot be a webhook URL, or null. Host names are checked again when resolved. */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must use http or https';
  if (u.hash) return 'must not have a #fragment';
  if (allowPrivate) return null;
  const host = hostOf(u);
  if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)) {
    return `points at a private or loopback address (${host}); set PROMPTD_WEBHOOK_ALLOW_PRIVATE=1 to allow such targets`;
  }
  return null;
}
