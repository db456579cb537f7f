// The page's files, read once into memory from assets/ beside this module (the build copies them into dist), so the
// page works with the network off and nothing is read from disk per request.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  type: string;
  body: Buffer;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export function assetsFolder(): string {
  return fileURLToPath(new URL('./assets/', import.meta.url));
}

/** "/index.html" -> the file's type and bytes. */
export function loadAssets(folder = assetsFolder()): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(folder)) {
    const type = TYPES[extname(name)];
    if (type) assets.set(`/${name}`, { type, body: readFileSync(join(folder, name)) });
  }
  return assets;
}
