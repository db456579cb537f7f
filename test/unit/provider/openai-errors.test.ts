import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenAISdk } from '../../../internal/provider/openai-sdk.js';
import {
  CallError,
  displayUrl,
  isContextLengthMessage,
  redact,
  toCallError,
} from '../../../internal/provider/openai-errors.js';
import type { RemoteModelConfig } from '../../../internal/provider/index.js';
import { FatalError } from '../../../internal/shared/index.js';

// The provider loads the SDK before its first request, and only then can an error be one of the SDK's.
beforeAll(() => loadOpenAISdk());

const remote: RemoteModelConfig = {
  id: 'groq/llama',
  provider: 'groq',
  model: 'llama',
  baseUrl: 'https://api.groq.com/openai/v1',
  apiKey: 'gsk_SECRETSECRET',
  apiKeyEnv: 'GROQ_API_KEY',
  local: false,
};
const lmstudio: RemoteModelConfig = {
  id: 'lmstudio/qwen',
  provider: 'lmstudio',
  model: 'qwen',
  baseUrl: 'http://127.0.0.1:1234/v1',
  local: true,
};
const vllm: RemoteModelConfig = {
  id: 'vllm/qwen',
  provider: 'vllm',
  model: 'Qwen/Qwen3-8B',
  baseUrl: 'http://127.0.0.1:8000/v1',
  local: true,
};
const apiError = (status: number, body: object, headers: Record<string, string> = {}): APIError =>
  APIError.generate(status, body, undefined, new Headers(headers));
const withCode = (code: string): Error =>
  new APIConnectionError({
    cause: Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('boom'), { code }) }),
  });

describe('toCallError', () => {
  it('classifies statuses', () => {
    const limited = toCallError(apiError(429, { error: { message: 'slow down' } }, { 'retry-after': '3' }), {
      config: remote,
      delivered: false,
    }) as CallError;
    expect([limited.code, limited.retryable, limited.retryAfterMs]).toEqual(['rate_limited', true, 3000]);
    const ms = toCallError(apiError(503, { error: { message: 'busy' } }, { 'retry-after-ms': '250' }), {
      config: remote,
      delivered: false,
    }) as CallError;
    expect([ms.code, ms.retryable, ms.retryAfterMs]).toEqual(['server_error', true, 250]);
    const bad = toCallError(apiError(400, { error: { message: 'tools[0] is invalid' } }), {
      config: remote,
      delivered: false,
    }) as CallError;
    expect([bad.code, bad.retryable]).toEqual(['bad_request', false]);
    expect(bad.message).toContain('tools[0] is invalid');
    const context = toCallError(apiError(400, { error: { message: 'Please reduce the length of the messages.' } }), {
      config: remote,
      delivered: false,
    }) as CallError;
    expect(context.code).toBe('context_length');
    expect(
      (toCallError(apiError(413, { error: { message: 'too big' } }), { config: remote, delivered: false }) as CallError)
        .code,
    ).toBe('context_length');
  });

  it('auth errors are fatal, name the env var, and hide the key', () => {
    const error = toCallError(apiError(401, { error: { message: 'Invalid API Key gsk_SECRETSECRET' } }), {
      config: remote,
      delivered: false,
    });
    expect(error).toBeInstanceOf(FatalError);
    expect(error.message).toContain('GROQ_API_KEY');
    expect(error.message).not.toContain('gsk_SECRETSECRET');
  });

  it('network and timeout errors: retried unless part of the reply was shown', () => {
    expect((toCallError(withCode('ECONNRESET'), { config: remote, delivered: false }) as CallError).retryable).toBe(
      true,
    );
    const cut = toCallError(withCode('UND_ERR_SOCKET'), { config: remote, delivered: true }) as CallError;
    expect([cut.code, cut.retryable]).toEqual(['stream_interrupted', false]);
    const headers = toCallError(withCode('UND_ERR_HEADERS_TIMEOUT'), { config: remote, delivered: false }) as CallError;
    expect([headers.code, headers.retryable]).toEqual(['timeout', true]);
    expect((toCallError(new APIConnectionTimeoutError(), { config: remote, delivered: false }) as CallError).code).toBe(
      'timeout',
    );
    expect((toCallError(withCode('ECONNREFUSED'), { config: remote, delivered: false }) as CallError).retryable).toBe(
      true,
    );
  });

  it('a refused local server fails fast with how to start it', () => {
    expect(toCallError(withCode('ECONNREFUSED'), { config: lmstudio, delivered: false }).message).toBe(
      'cannot reach LM Studio at http://127.0.0.1:1234/v1 — start the LM Studio server (Developer tab, or `lms server start`)',
    );
    const error = toCallError(withCode('ECONNREFUSED'), { config: vllm, delivered: false });
    expect(error).toBeInstanceOf(FatalError);
    expect(error.message).toContain('vllm serve Qwen/Qwen3-8B');
  });
});

describe('helpers', () => {
  it('recognises context-length messages from several servers', () => {
    for (const text of [
      "This model's maximum context length is 8192 tokens",
      'prompt is too long: 210000 tokens > 200000 maximum',
      'the request exceeds the available context size, try increasing it',
      'Input is too long for requested model.',
    ]) {
      expect(isContextLengthMessage(undefined, text)).toBe(true);
    }
    expect(isContextLengthMessage('context_length_exceeded', '')).toBe(true);
    expect(isContextLengthMessage(undefined, 'invalid tool schema')).toBe(false);
  });

  it('redacts the key and bearer tokens', () => {
    expect(redact('key gsk_SECRETSECRET and Authorization: Bearer abcdefghijkl', { config: remote })).toBe(
      'key [redacted] and Authorization: Bearer [redacted]',
    );
  });
});

describe('displayUrl', () => {
  it('keeps credentials out of URLs shown in messages', () => {
    expect(displayUrl('https://user:sk-secret@proxy.example/v1?key=sk-secret')).toBe('https://proxy.example/v1');
    expect(displayUrl('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1');
  });
});
