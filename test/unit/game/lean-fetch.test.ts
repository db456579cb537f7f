// The game calls' fetch over undici's request API: it must look like fetch to the MCP client and to Skipper's error
// classification — JSON answers whole, event streams as they come, headers (Retry-After, the session id), GETs and
// redirects through the built-in fetch, network failures as "fetch failed" with the cause, aborts as the reason.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { leanFetch } from '../../../internal/game/lean-fetch.js';
import { cuttingFetch } from '../../../internal/game/long-strings.js';
import { classifyCallError } from '../../../internal/game/result.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('leanFetch', () => {
  it('posts the body and headers, and gives back status, headers and the JSON answer', async () => {
    const seen: Array<{ method?: string; type?: string; session?: string; body: string }> = [];
    const base = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({
          method: req.method,
          type: req.headers['content-type'],
          session: req.headers['mcp-session-id'] as string | undefined,
          body,
        });
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7', 'mcp-session-id': 'abc' });
        res.end(JSON.stringify({ ok: true, echo: JSON.parse(body) as unknown }));
      });
    });
    const headers = new Headers({ 'content-type': 'application/json', 'mcp-session-id': 's1' });
    const response = await leanFetch(`${base}/mcp`, { method: 'POST', headers, body: '{"id":1}' });
    expect(seen).toEqual([{ method: 'POST', type: 'application/json', session: 's1', body: '{"id":1}' }]);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('mcp-session-id')).toBe('abc');
    expect(await response.json()).toEqual({ ok: true, echo: { id: 1 } });
  });

  it('hands an event stream on as it comes, before the server ends it', async () => {
    let finish: () => void = () => undefined;
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const response = await leanFetch(`${base}/mcp`, { method: 'POST', body: '{}' });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe('data: one\n\n');
    finish();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += Buffer.from(chunk.value).toString();
    expect(rest).toBe('data: two\n\n');
  });

  it('an accepted notification (202, no body) and a DELETE read as fetch reads them', async () => {
    const base = await serve((req, res) => {
      res.writeHead(req.method === 'DELETE' ? 204 : 202);
      res.end();
    });
    const accepted = await leanFetch(`${base}/mcp`, { method: 'POST', body: '{}' });
    expect([accepted.status, await accepted.text()]).toEqual([202, '']);
    const deleted = await leanFetch(`${base}/mcp`, { method: 'DELETE' });
    expect([deleted.status, deleted.body]).toEqual([204, null]);
  });

  it("cuts a long string as it reads it, once: the transport's cuttingFetch hands its answer on as it is", async () => {
    const text = 'z'.repeat(3 * 1024 * 1024);
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text }));
    });
    const post = { method: 'POST', body: '{}' };
    const read = await leanFetch(`${base}/mcp`, post);
    let handedOn: Response | undefined;
    const cutting = cuttingFetch(async (url, init) => (handedOn = await leanFetch(url, init)));
    const response = await cutting(`${base}/mcp`, post);
    expect(response).toBe(handedOn); // not wrapped in a second cut
    const kept = ((await response.json()) as { text: string }).text;
    expect(kept).toBe(((await read.json()) as { text: string }).text);
    expect(kept.length).toBeLessThan(1024 * 1024);
    expect(kept).toMatch(/\[… [\d,]+ chars omitted …\]/);
    // A smaller limit than the one it was cut to still cuts (to 4 KB and its marker).
    const smaller = await cuttingFetch((url, init) => leanFetch(url, init), 4096)(`${base}/mcp`, post);
    expect(((await smaller.json()) as { text: string }).text.length).toBeLessThan(4096 + 64);
  });

  it('follows a redirect (through the built-in fetch)', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/old') {
        res.writeHead(307, { location: '/new' });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ at: req.url }));
      }
    });
    const response = await leanFetch(`${base}/old`, { method: 'POST', body: '{}' });
    expect(await response.json()).toEqual({ at: '/new' });
  });

  it('a refused connection fails as fetch fails: "fetch failed", the cause kept, classified as the network', async () => {
    const error = await leanFetch('http://127.0.0.1:9/mcp', { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect(((error as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
    expect(classifyCallError(error).kind).toBe(
      classifyCallError(await fetch('http://127.0.0.1:9/').catch((e) => e)).kind,
    );
  });

  it('an abort throws the signal’s reason', async () => {
    const base = await serve(() => undefined); // never answers
    const controller = new AbortController();
    const pending = leanFetch(`${base}/mcp`, { method: 'POST', body: '{}', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop now')), 20);
    await expect(pending).rejects.toThrow('stop now');
  });
});
