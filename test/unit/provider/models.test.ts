import { describe, expect, it } from 'vitest';
import { KNOWN_PROVIDERS, parsePrice, resolveModel } from '../../../internal/provider/index.js';
import { FatalError, UsageError } from '../../../internal/shared/index.js';

const env = {
  OPENAI_API_KEY: 'sk-o',
  OPENROUTER_API_KEY: 'sk-or',
  ANTHROPIC_API_KEY: 'sk-a',
  GROQ_API_KEY: 'gsk',
  MY_KEY: 'mine',
};

describe('resolveModel', () => {
  it('resolves every hosted preset with its URL and key', () => {
    expect(resolveModel({ model: 'openai/gpt-4o-mini' }, env)).toEqual({
      id: 'openai/gpt-4o-mini',
      provider: 'openai',
      model: 'gpt-4o-mini',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-o',
      apiKeyEnv: 'OPENAI_API_KEY',
      local: false,
    });
    expect(resolveModel({ model: 'anthropic/claude-sonnet-4-5' }, env)).toMatchObject({
      baseUrl: 'https://api.anthropic.com/v1/',
      apiKey: 'sk-a',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
    });
    expect(resolveModel({ model: 'groq/llama-3.1-8b-instant' }, env)).toMatchObject({
      baseUrl: 'https://api.groq.com/openai/v1',
      apiKey: 'gsk',
    });
  });

  it('splits on the first slash only (model names may contain slashes)', () => {
    expect(resolveModel({ model: 'openrouter/meta-llama/llama-3.1-8b' }, env)).toMatchObject({
      id: 'openrouter/meta-llama/llama-3.1-8b',
      provider: 'openrouter',
      model: 'meta-llama/llama-3.1-8b',
      baseUrl: 'https://openrouter.ai/api/v1',
      apiKey: 'sk-or',
    });
  });

  it('local presets need no key and are marked local', () => {
    expect(resolveModel({ model: 'ollama/qwen3:8b' }, {})).toEqual({
      id: 'ollama/qwen3:8b',
      provider: 'ollama',
      model: 'qwen3:8b',
      baseUrl: 'http://127.0.0.1:11434/v1',
      local: true,
    });
    expect(resolveModel({ model: 'lmstudio/x' }, {})).toMatchObject({
      baseUrl: 'http://127.0.0.1:1234/v1',
      local: true,
    });
    expect(resolveModel({ model: 'vllm/x' }, {})).toMatchObject({ baseUrl: 'http://127.0.0.1:8000/v1', local: true });
  });

  it('--base-url overrides a preset URL', () => {
    expect(resolveModel({ model: 'ollama/llama3', baseUrl: 'http://gpu-box:11434/v1' }, {}).id).toBe('ollama/llama3');
    expect(resolveModel({ model: 'ollama/llama3', baseUrl: 'http://gpu-box:11434/v1' }, {})).toMatchObject({
      baseUrl: 'http://gpu-box:11434/v1',
    });
  });

  it('custom needs --base-url and reads --api-key-env', () => {
    expect(() => resolveModel({ model: 'custom/m' }, env)).toThrow(UsageError);
    expect(() => resolveModel({ model: 'custom/m' }, env)).toThrow(/--base-url/);
    expect(
      resolveModel({ model: 'custom/m', baseUrl: 'https://llm.example.com/v1', apiKeyEnv: 'MY_KEY' }, env),
    ).toMatchObject({ apiKey: 'mine', apiKeyEnv: 'MY_KEY', local: false });
    // A custom endpoint on this machine counts as local (free; fails fast when not running).
    expect(resolveModel({ model: 'custom/m', baseUrl: 'http://localhost:8080/v1' }, env)).toMatchObject({
      local: true,
    });
    expect(resolveModel({ model: 'custom/m', baseUrl: 'http://127.0.0.1:9/v1' }, env)).not.toHaveProperty('apiKey');
    expect(() => resolveModel({ model: 'custom/m', baseUrl: 'http://x/v1', apiKeyEnv: 'NOPE' }, env)).toThrow(/NOPE/);
    expect(() => resolveModel({ model: 'custom/m', baseUrl: 'not a url' }, env)).toThrow(UsageError);
  });

  it('builtin models resolve to the builtin marker', () => {
    expect(resolveModel({ model: 'builtin/autopilot' }, {})).toEqual({ id: 'builtin/autopilot', builtin: 'autopilot' });
    expect(resolveModel({ model: 'builtin/random' }, {})).toEqual({ id: 'builtin/random', builtin: 'random' });
    expect(() => resolveModel({ model: 'builtin/genius' }, {})).toThrow(UsageError);
  });

  it('an unknown provider is a usage error listing the known ones', () => {
    const error = (() => {
      try {
        resolveModel({ model: 'openia/gpt-4o' }, env);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    for (const name of KNOWN_PROVIDERS) expect((error as Error).message).toContain(`${name}/`);
    expect(() => resolveModel({ model: 'gpt-4o' }, env)).toThrow(/PROVIDER\/MODEL/);
    expect(() => resolveModel({}, env)).toThrow(UsageError);
  });

  it('a missing key is fatal (exit 1) and names the variable to set', () => {
    let error: unknown;
    try {
      resolveModel({ model: 'openai/gpt-4o' }, {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FatalError);
    expect(error).not.toBeInstanceOf(UsageError);
    expect((error as FatalError).exitCode).toBe(1);
    expect((error as Error).message).toContain('OPENAI_API_KEY');
    expect(() => resolveModel({ model: 'groq/x' }, { GROQ_API_KEY: '  ' })).toThrow(/GROQ_API_KEY/);
  });

  it('parses --price', () => {
    expect(resolveModel({ model: 'ollama/x', price: '0.5,1.5' }, {})).toMatchObject({
      price: { inPerM: 0.5, outPerM: 1.5 },
    });
    expect(parsePrice(' 3 , 15 ')).toEqual({ inPerM: 3, outPerM: 15 });
    expect(parsePrice('1,2,0.1')).toEqual({ inPerM: 1, outPerM: 2, cachedPerM: 0.1 });
    for (const bad of ['1', '1,2,3,4', 'a,b', '-1,2', ',2', '1,2,', '1,2,-1', '1,2,x']) {
      expect(() => parsePrice(bad)).toThrow(UsageError);
    }
  });
});
