// Which models accept images in a chat request, by model id pattern (hosted ids, OpenRouter's `vendor/model` ids and
// common local ones). A guess from the name: config.json `"vision": true|false` overrides it either way, because a
// wrong `true` makes the server refuse the request and a wrong `false` only costs the model the picture.

const VISION: readonly RegExp[] = [
  /(^|\/)gpt-4o/,
  /(^|\/)gpt-4\.1/,
  /(^|\/)gpt-5/,
  /(^|\/)o3(?!-mini)(\b|-)/,
  /(^|\/)o4-mini/,
  /(^|\/)claude-([3-9]|[a-z]+-[4-9])/,
  /(^|\/)gemini/,
  // Local (Ollama, LM Studio, vLLM): Qwen-VL, LLaVA and the "-vision" models.
  /qwen[\d.]*-?vl/,
  /llava/,
  /vision/,
];

/** Variants of vision families that take no images (audio, speech, embeddings). */
const NOT_VISION = /audio|realtime|transcribe|tts|embed/;

export function acceptsImages(model: string): boolean {
  const name = model.toLowerCase();
  return !NOT_VISION.test(name) && VISION.some((pattern) => pattern.test(name));
}
