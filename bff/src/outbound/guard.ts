import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The guard of outbound requests, without the HTTP client (outbound/http.ts, on the sender
 * thread): what the API checks when a webhook's URL is set, and what the client checks at
 * connect time. It refuses loopback, private, link-local, metadata and other internal
 * addresses after DNS resolution, unless the instance allows local requests.
 */
/**
 * Addresses are classified by range with ipaddr.js (IANA special-purpose registries). IPv4 is
 * reachable only in global unicast; IPv6 only in global unicast (2000::/3, minus the special
 * ranges), and an IPv6 form that embeds an IPv4 address (mapped, SIIT, NAT64, 6to4, Teredo) is
 * judged by the IPv4 address it leads to.
 */
function ipv4Reachable(v4: ipaddr.IPv4): boolean {
  return v4.range() === 'unicast';
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** The IPv4 addresses an IPv6 address of an embedding range leads to (Teredo names two). */
function embeddedIpv4(v6: ipaddr.IPv6, range: string): ipaddr.IPv4[] | undefined {
  const b = v6.toByteArray();
  const v4 = (bytes: number[]) => new ipaddr.IPv4(bytes);
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [v4(b.slice(12, 16))];
    case '6to4':
      return [v4(b.slice(2, 6))];
    case 'teredo':
      // Server at bits 32–63; client at the last 32 bits, inverted.
      return [v4(b.slice(4, 8)), v4(b.slice(12, 16).map((x) => x ^ 0xff))];
    default:
      return undefined;
  }
}

/** Whether an address must not be reached (anything that is not an IP address counts as internal). */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !ipv4Reachable(ipaddr.IPv4.parse(address));
  if (family !== 6) return true;
  // Canonical hex form first: ipaddr.js reads any dotted tail (`::8.8.8.8`) as IPv4-mapped.
  const v6 = ipaddr.IPv6.parse(new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1));
  const range = v6.range();
  const embedded = embeddedIpv4(v6, range);
  if (embedded) return !embedded.every(ipv4Reachable);
  return range !== 'unicast' || !v6.match(GLOBAL_UNICAST);
}

export class BlockedRequestError extends Error {}

/** Resolves a host and refuses it when any of its addresses is internal. */
export async function checkHost(hostname: string, allowLocal: boolean): Promise<void> {
  if (allowLocal) return;
  const host = hostname.replace(/^\[|\]$/g, '');
  if (/^localhost$|\.localhost$/i.test(host)) throw new BlockedRequestError('Requests to localhost are not allowed');
  const addresses = net.isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  const internal = addresses.find(isInternalAddress);
  if (internal) throw new BlockedRequestError(`Requests to the local network are not allowed (${host} resolves to ${internal})`);
}

/** Validation at configuration time: a well-formed http(s) URL whose host may be reached. */
export async function checkUrl(raw: string, allowLocal: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedRequestError('is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedRequestError('must use http or https');
  try {
    await checkHost(url.hostname, allowLocal);
  } catch (e) {
    if (e instanceof BlockedRequestError) throw e;
    throw new BlockedRequestError(`host ${url.hostname} cannot be resolved`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

export function guardedLookup(allowLocal: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as dns.LookupAddress[];
      const bad = !allowLocal && list.find((a) => isInternalAddress(a.address));
      if (bad) return callback(Object.assign(new BlockedRequestError(`Requests to the local network are not allowed (${hostname} resolves to ${bad.address})`), { code: 'EBLOCKED' }), []);
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

