// The pieces of the HTTP guard: the loopback range for /stats, Host header parsing, and the names a server serves.
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { describe, expect, test } from 'vitest';
import { hostGuard, isLoopback, splitHost } from '../../../internal/sim/http-guard.js';

const request = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;

describe('isLoopback', () => {
  test.each([
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.254',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:127.9.8.7',
    '0:0:0:0:0:0:0:1',
  ])('%s is loopback', (address) => {
    expect(isLoopback(address)).toBe(true);
  });
  test.each(['128.0.0.1', '10.0.0.1', '::ffff:10.0.0.1', '::2', '', 'localhost', undefined])('%s is not', (address) => {
    expect(isLoopback(address)).toBe(false);
  });
});

describe('splitHost', () => {
  test('names, ports and IPv6 brackets', () => {
    expect(splitHost('LocalHost:7777')).toEqual({ name: 'localhost', port: 7777 });
    expect(splitHost('[::1]:80')).toEqual({ name: '::1', port: 80 });
    expect(splitHost('example.com.')).toEqual({ name: 'example.com', port: null });
    expect(splitHost('a b')).toBeNull();
    expect(splitHost('host:port')).toBeNull();
  });
});

describe('hostGuard', () => {
  test("bound to 0.0.0.0 with no extra names: loopback names and this machine's addresses", () => {
    const guard = hostGuard({ listenHost: '0.0.0.0', port: 7777 });
    expect(guard.wildcardDefault).toBe(true);
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .find((entry) => entry.family === 'IPv4' && !entry.internal);
    if (own) expect(guard.refusal(request({ host: `${own.address}:7777` }))).toBeNull();
    expect(guard.refusal(request({ host: '0.0.0.0:7777' }))).toBeNull(); // the URL the banner prints
    expect(guard.refusal(request({ host: 'rebound.example:7777' }))).toMatch(/Host header/);
    expect(guard.refusal(request({}))).toMatch(/Host header \(none\)/);
    expect(hostGuard({ listenHost: '0.0.0.0', port: 7777, allowedHosts: ['game.example'] }).wildcardDefault).toBe(
      false,
    );
  });

  test('a name with a port matches that port only; port 80 may be left out', () => {
    const guard = hostGuard({ listenHost: '127.0.0.1', port: 80, allowedHosts: ['proxy.example:8443'] });
    expect(guard.refusal(request({ host: 'localhost' }))).toBeNull();
    expect(guard.refusal(request({ host: 'proxy.example:8443' }))).toBeNull();
    expect(guard.refusal(request({ host: 'proxy.example' }))).toMatch(/Host/);
    expect(() => hostGuard({ listenHost: '127.0.0.1', port: 1, allowedHosts: ['bad host'] })).toThrow(/allowedHosts/);
  });
});
