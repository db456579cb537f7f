// An alert's way to a webhook: one JSON POST per alert in the receiver's format (Discord `{content}`, Slack `{text}`,
// or our own `{type:'alert', rule, captain, fleet, text, at, link}`), each given 5 s. Posting never holds play up
// (the caller does not wait), and a receiver that fails is logged once — again only after it has worked meanwhile.
import type { Logger } from '../shared/index.js';
import type { Alert, AlertFormat } from './alerts.js';

export const WEBHOOK_TIMEOUT_MS = 5000;

/** The body a receiver of `format` reads. Game text in an alert is someone else's words: no mentions, no markup. */
export function webhookBody(alert: Alert, format: AlertFormat): Record<string, unknown> {
  const line = `[${alert.fleet}] ${alert.captain} — ${alert.rule}: ${alert.text}`;
  if (format === 'discord')
    // allowed_mentions: a player's chat quoted in an alert cannot ping @everyone in the channel.
    return { content: `${line}\n${alert.link}`, allowed_mentions: { parse: [] } };
  if (format === 'slack') return { text: `${slackEscape(line)}\n${slackEscape(alert.link)}` };
  return {
    type: 'alert',
    rule: alert.rule,
    captain: alert.captain,
    fleet: alert.fleet,
    text: alert.text,
    at: new Date(alert.at).toISOString(),
    ...(alert.turn !== undefined ? { turn: alert.turn } : {}),
    link: alert.link,
  };
}

/** Slack reads `<…>` as links and mentions; `&`, `<` and `>` are written as entities. */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The format a webhook's address suggests (Discord's and Slack's hosts), else our own JSON. */
export function formatForUrl(url: string): AlertFormat {
  const host = new URL(url).hostname;
  if (/(^|\.)discord(app)?\.com$/.test(host)) return 'discord';
  if (host === 'hooks.slack.com') return 'slack';
  return 'json';
}

export class AlertWebhook {
  private failing = false;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly options: {
      url: string;
      format: AlertFormat;
      logger: Logger;
      /** Told once when posting starts failing (the terminal says so). */
      onFailure?: (line: string) => void;
      fetch?: typeof fetch;
      timeoutMs?: number;
    },
  ) {}

  /** Posts the alert in the background. */
  send(alert: Alert): void {
    const post = this.post(alert).finally(() => this.pending.delete(post));
    this.pending.add(post);
  }

  /** Resolves once every post made so far has answered or timed out. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private async post(alert: Alert): Promise<void> {
    const doFetch = this.options.fetch ?? fetch;
    try {
      const response = await doFetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(webhookBody(alert, this.options.format)),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
      });
      // The body is not read: drop it so the connection is free.
      await response.body?.cancel().catch(() => undefined);
      if (!response.ok) throw new Error(`the receiver answered ${response.status}`);
      this.failing = false;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (this.failing) return;
      this.failing = true;
      const host = safeHost(this.options.url);
      this.options.logger.warn({ webhook: host, error: reason }, 'fleet: an alert could not be posted');
      this.options.onFailure?.(
        `alert webhook ${host} failed (${reason}); alerts still reach the terminal and the page`,
      );
    }
  }
}

/** The receiver's host only: a webhook's path is its secret. */
function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'webhook';
  }
}
