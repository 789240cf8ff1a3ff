// One HTTP POST of a delivery. node:http rather than fetch: its `lookup` hook lets
// us refuse private addresses after DNS resolution, on the very address the socket
// connects to (a check before fetch could be undone by DNS rebinding), and it never
// follows redirects (a redirect could point at an internal address).
import http from 'node:http';
import https from 'node:https';
import dns, { type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress, webhookUrlProblem } from './url-guard.js';

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Resolves with the receiver's status; rejects on network errors and timeouts. */
export type Sender = (req: SendRequest) => Promise<{ status: number }>;

function guardedLookup(allowPrivate: boolean, resolve: typeof dns.lookup): LookupFunction {
  return (hostname, options, cb) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (bad) {
        const e = Object.assign(new Error(`${hostname} resolves to the private address ${bad.address}; set PROMPTD_WEBHOOK_ALLOW_PRIVATE=1 to allow such targets`), { code: 'EPRIVATE' });
        return cb(e, '', 0);
      }
      if (options.all) return (cb as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      cb(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** `resolve` stands in for DNS in tests (a name that resolves to loopback, as in rebinding). */
export function createSender({ allowPrivate, resolve = dns.lookup }: { allowPrivate: boolean; resolve?: typeof dns.lookup }): Sender {
  const lookup = guardedLookup(allowPrivate, resolve);
  return ({ url, headers, body, timeoutMs, signal }) =>
    new Promise((resolve, reject) => {
      // IP literals skip `lookup`, so they are checked here.
      const u = new URL(url);
      const problem = isIP(u.hostname.replace(/^\[|\]$/g, '')) || u.hostname === 'localhost' ? webhookUrlProblem(url, allowPrivate) : null;
      if (problem) return reject(new Error(`the URL ${problem}`));
      const client = u.protocol === 'https:' ? https : http;
      const req = client.request(u, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup, signal });
      const timer = setTimeout(() => req.destroy(new Error(`no response within ${timeoutMs / 1000} s`)), timeoutMs);
      req.on('response', (res) => {
        clearTimeout(timer);
        res.resume(); // the body is not read; drain it so the socket is freed
        resolve({ status: res.statusCode ?? 0 });
      });
      req.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      req.end(body);
    });
}
