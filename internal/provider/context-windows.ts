// Context windows (tokens) of common hosted models, so the loop can compact before the server refuses. Unknown
// and local models return undefined: a local server's window depends on how it was started (Ollama's num_ctx),
// so the caller passes it explicitly or relies on the `context_length` error.

const WINDOWS: Array<[RegExp, number]> = [
  [/^(openai\/)?gpt-4\.1/, 1_047_576],
  [/^(openai\/)?gpt-5/, 400_000],
  [/^(openai\/)?gpt-4o/, 128_000],
  [/^(openai\/)?o[34](-mini)?/, 200_000],
  [/^(anthropic\/)?claude/, 200_000],
  [/llama-3\.[13]-/, 131_072],
  [/deepseek/, 64_000],
  [/qwen3/, 32_768],
];

export function contextWindowFor(model: string, local: boolean): number | undefined {
  if (local) return undefined;
  const name = model.toLowerCase();
  return WINDOWS.find(([pattern]) => pattern.test(name))?.[1];
}
