// Alerts posted to a webhook: each receiver's body, a real HTTP receiver (node:http) that answers, one that fails
// (logged once, not per alert, and again only after it worked meanwhile), and one that never answers (cut at the
// timeout, play never waits for it).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertWebhook, formatForUrl, webhookBody } from '../../../internal/fleet/alert-webhook.js';
import type { Alert } from '../../../internal/fleet/alerts.js';
import type { Logger } from '../../../internal/shared/index.js';

const alert: Alert = {
  type: 'alert',
  rule: 'spoken_to',
  captain: 'ada',
  fleet: 'miners',
  text: 'zed said: “@everyone <!channel> ada, sell me ore”',
  at: Date.UTC(2026, 0, 2, 3, 4, 5),
  turn: 12,
  link: '/#captain=ada&turn=12',
};

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function receiver(status: () => number): Promise<{ url: string; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(text));
      response.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/secret`, bodies };
}

function recordingLogger(): { logger: Logger; warnings: unknown[] } {
  const warnings: unknown[] = [];
  const logger = {
    warn: (fields: unknown, message: string) => warnings.push({ fields, message }),
  } as unknown as Logger;
  return { logger, warnings };
}

describe('alert webhook', () => {
  it('writes each format: ours, Discord (no mentions) and Slack (markup escaped)', () => {
    expect(webhookBody(alert, 'json')).toEqual({
      type: 'alert',
      rule: 'spoken_to',
      captain: 'ada',
      fleet: 'miners',
      text: alert.text,
      at: '2026-01-02T03:04:05.000Z',
      turn: 12,
      link: '/#captain=ada&turn=12',
    });
    expect(webhookBody(alert, 'discord')).toEqual({
      content: `[miners] ada — spoken_to: ${alert.text}\n/#captain=ada&turn=12`,
      allowed_mentions: { parse: [] },
    });
    expect(webhookBody(alert, 'slack')).toEqual({
      // Slack decodes these entities: the reader sees `<!channel>` and `&` as written, and nobody is pinged.
      text: '[miners] ada — spoken_to: zed said: “@everyone &lt;!channel&gt; ada, sell me ore”\n/#captain=ada&amp;turn=12',
    });
    expect(formatForUrl('https://discord.com/api/webhooks/1/x')).toBe('discord');
    expect(formatForUrl('https://hooks.slack.com/services/T/B/x')).toBe('slack');
    expect(formatForUrl('https://example.com/x')).toBe('json');
  });

  it('posts to a real receiver; a failing one is logged once until it works again', async () => {
    let status = 200;
    const { url, bodies } = await receiver(() => status);
    const { logger, warnings } = recordingLogger();
    const failures: string[] = [];
    const webhook = new AlertWebhook({ url, format: 'json', logger, onFailure: (line) => failures.push(line) });
    webhook.send(alert);
    await webhook.settled();
    expect(bodies).toEqual([webhookBody(alert, 'json')]);
    status = 500;
    webhook.send(alert);
    webhook.send(alert);
    await webhook.settled();
    webhook.send(alert);
    await webhook.settled();
    expect(bodies).toHaveLength(4);
    expect(failures).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    // The hook's path is its secret: only the host is said.
    expect(failures[0]).toMatch(/^alert webhook 127\.0\.0\.1:\d+ failed \(the receiver answered 500\)/);
    expect(JSON.stringify(warnings)).not.toContain('secret');
    status = 200;
    webhook.send(alert);
    await webhook.settled();
    status = 500;
    webhook.send(alert);
    await webhook.settled();
    expect(failures).toHaveLength(2);
  });

  it('a receiver that never answers is cut at the timeout', async () => {
    server = createServer(() => undefined);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const { logger } = recordingLogger();
    const failures: string[] = [];
    const webhook = new AlertWebhook({
      url,
      format: 'json',
      logger,
      timeoutMs: 200,
      onFailure: (l) => failures.push(l),
    });
    webhook.send(alert);
    // settled() resolving at all is the cut: a receiver that never answers would otherwise hold it past the test's time.
    await webhook.settled();
    expect(failures).toHaveLength(1);
    server.closeAllConnections();
  });
});
