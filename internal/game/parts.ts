// MCP tool content that is not text -> our ContentPart: what it is and how big. Only images keep their bytes, and only
// up to MAX_MODEL_IMAGE_BYTES in a format chat APIs take (png, jpeg, gif, webp), so a model that accepts images can be
// shown them; audio and resources never keep theirs (they would swell every stored tool message and no chat model
// here reads them). PNG width×height is read from the IHDR header, which sits in the first 24 bytes; other formats
// give size only.
import { MAX_MODEL_IMAGE_BYTES, type ContentPart } from '../shared/index.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

type Raw = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Decoded size of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/[^A-Za-z0-9+/=_-]/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Width and height from a PNG's IHDR chunk, when the data is a PNG. */
export function pngSize(base64: string): { width: number; height: number } | undefined {
  const head = Buffer.from(base64.slice(0, 32), 'base64');
  if (head.length < 24 || PNG_SIGNATURE.some((byte, index) => head[index] !== byte)) return undefined;
  if (head.toString('ascii', 12, 16) !== 'IHDR') return undefined;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** Image formats the OpenAI chat API (and the servers that copy it) accept in an `image_url` data URL. */
const SENDABLE_IMAGE = /^image\/(png|jpeg|gif|webp)$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function readImage(data: string, mimeType: string): ContentPart {
  const bytes = base64Bytes(data);
  const image: ContentPart = { type: 'image', mimeType, bytes, ...(pngSize(data) ?? {}) };
  // Line breaks are legal in MCP base64 but not in a data URL; anything else odd means the bytes are not sent.
  const clean = data.replace(/\s+/g, '');
  if (!SENDABLE_IMAGE.test(mimeType) || !BASE64.test(clean)) return image;
  if (bytes > MAX_MODEL_IMAGE_BYTES) return { ...image, tooLarge: true };
  return { ...image, data: clean };
}

/** The non-text parts of a tools/call result's content, in order; unknown kinds are skipped. */
export function readContentParts(content: readonly unknown[]): ContentPart[] {
  const parts: ContentPart[] = [];
  for (const item of content) {
    if (!item || typeof item !== 'object') continue;
    const raw = item as Raw;
    if (raw.type === 'image' || raw.type === 'audio') {
      const data = typeof raw.data === 'string' ? raw.data : '';
      const mimeType = text(raw.mimeType) ?? 'application/octet-stream';
      if (raw.type === 'audio') {
        parts.push({ type: 'audio', mimeType, bytes: base64Bytes(data) });
        continue;
      }
      parts.push(readImage(data, mimeType));
    } else if (raw.type === 'resource' && raw.resource && typeof raw.resource === 'object') {
      const resource = raw.resource as Raw;
      const uri = text(resource.uri) ?? '(no uri)';
      const mimeType = text(resource.mimeType);
      const bytes =
        typeof resource.text === 'string'
          ? Buffer.byteLength(resource.text, 'utf8')
          : typeof resource.blob === 'string'
            ? base64Bytes(resource.blob)
            : undefined;
      parts.push({
        type: 'resource',
        uri,
        ...(mimeType ? { mimeType } : {}),
        ...(bytes !== undefined ? { bytes } : {}),
      });
    } else if (raw.type === 'resource_link') {
      const name = text(raw.name);
      parts.push({ type: 'resource_link', uri: text(raw.uri) ?? '(no uri)', ...(name ? { name } : {}) });
    }
  }
  return parts;
}
