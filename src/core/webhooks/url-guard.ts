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
] as const) blocked.addSubnet(net, bits, 'ipv6');

/** IPv4 embedded in an IPv6 address (::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d), if any. */
function embeddedV4(ip: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for loopback, private, link-local, multicast and reserved addresses. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(ip);
    return v4 !== undefined ? blocked.check(v4, 'ipv4') : blocked.check(ip, 'ipv6');
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
