// Who may reach minimolt's HTTP endpoints. DNS rebinding: a web page on attacker.example can have its name resolve to
// 127.0.0.1 and then script requests to a local game; the browser still sends `Host: attacker.example`, so /mcp,
// /mcp/v2 and /stats serve only the names the server answers to (loopback names, its listen address, --allowed-host,
// and its own addresses when bound to all of them) and refuse other web Origins, as the MCP SDK's
// enableDnsRebindingProtection does with allowedHosts/allowedOrigins. Also: the loopback test for /stats, the client
// address for per-address limits, and CORS for local browser inspectors.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

export interface HostGuard {
  /** Why the request is refused (Host or Origin), or null when it may go on. */
  refusal(req: IncomingMessage): string | null;
  /** A web origin that may call us (and gets CORS headers). */
  originAllowed(origin: string): boolean;
  /** The host names served, for the banner (`name` or `name:port`). */
  readonly names: string[];
  /** Bound to every address with no --allowed-host: only loopback names and this machine's addresses are served. */
  readonly wildcardDefault: boolean;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** 127.0.0.0/8, ::1 and IPv4-mapped ::ffff:127.x (the whole loopback range, not only 127.0.0.1). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(address);
}

/** The socket's peer (never a forwarded-for header, which any client can write): IPv4-mapped IPv6 as plain IPv4. */
export function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export function isWildcard(host: string): boolean {
  return host === '' || host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** "Name:port", "[v6]:port" or "name" -> lowercased name without brackets or a trailing dot, and the port if given. */
export function splitHost(value: string): { name: string; port: number | null } | null {
  const match =
    /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(\d{1,5}))?$/i.exec(value.trim()) ?? /^([0-9a-f:.]+)$/i.exec(value.trim());
  if (!match?.[1]) return null;
  const name = match[1]
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  return { name, port: match[2] === undefined ? null : Number(match[2]) };
}

function ownAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map((entry) => entry.address.toLowerCase().replace(/%.*$/, '')),
  );
}

export function hostGuard(options: { listenHost: string; port: number; allowedHosts?: readonly string[] }): HostGuard {
  const extra = (options.allowedHosts ?? []).map((value) => {
    const parsed = splitHost(value);
    if (!parsed) throw new RangeError(`allowedHosts: "${value}" is not a host name (name or name:port)`);
    return parsed;
  });
  const wildcard = isWildcard(options.listenHost);
  const names = new Set(LOOPBACK_NAMES);
  // The listen address itself, even 0.0.0.0 (the URL the banner prints); an IP literal cannot be rebound.
  names.add(splitHost(options.listenHost)?.name ?? options.listenHost.toLowerCase());
  if (wildcard) for (const address of ownAddresses()) names.add(address);
  const served = (name: string, port: number | null): boolean => {
    const ourPort = port === null ? options.port === 80 : port === options.port;
    if (ourPort && (names.has(name) || (isIP(name) === 4 && name.startsWith('127.')))) return true;
    return extra.some((entry) => entry.name === name && (entry.port === null ? ourPort : entry.port === port));
  };
  const originAllowed = (origin: string): boolean => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const name = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    // Pages served from this machine (a local MCP inspector on another port) and from the allowed names may call us.
    return names.has(name) || isLoopback(name) || extra.some((entry) => entry.name === name);
  };
  return {
    names: [...names, ...extra.map((entry) => (entry.port === null ? entry.name : `${entry.name}:${entry.port}`))],
    wildcardDefault: wildcard && extra.length === 0,
    originAllowed,
    refusal: (req) => {
      const host = req.headers.host;
      const parsed = host === undefined ? null : splitHost(host);
      if (!parsed || !served(parsed.name, parsed.port)) {
        return `forbidden: Host header ${host === undefined ? '(none)' : JSON.stringify(host)} is not one this server answers to; start it with --allowed-host NAME to serve another name`;
      }
      const origin = req.headers.origin;
      if (origin !== undefined && !originAllowed(origin))
        return `forbidden: Origin ${JSON.stringify(origin)} may not call this server`;
      return null;
    },
  };
}

/**
 * CORS for allowed web origins (a browser-based MCP inspector served from this machine); other origins get no CORS
 * headers. Returns true when it answered a preflight.
 */
export function allowCors(req: IncomingMessage, res: ServerResponse, guard: HostGuard): boolean {
  const origin = req.headers.origin;
  if (!origin || !guard.originAllowed(origin)) return false;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
  res.setHeader('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
  if (req.method !== 'OPTIONS') return false;
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers':
      'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
    'access-control-max-age': '600',
  });
  res.end();
  return true;
}
