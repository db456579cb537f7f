// A minimal Server-Sent Events reader: yields each event's `data` (multi-line data joined by "\n"). Our own rather
// than the SDK's so the provider can see `[DONE]`, tell a cut stream from a finished one, and report data that
// does not parse as JSON with a clear error instead of a console dump.

export async function* readSseData(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const takeLine = (line: string): string | undefined => {
    if (line === '') {
      if (data.length === 0) return undefined;
      const event = data.join('\n');
      data = [];
      return event;
    }
    if (line.startsWith(':')) return undefined; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    return undefined;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) !== -1) {
      const line = buffer.slice(0, newline);
      const width = buffer.startsWith('\r\n', newline) ? 2 : 1;
      // A lone "\r" at the end of the buffer may be half of "\r\n": wait for more.
      if (width === 1 && buffer[newline] === '\r' && newline === buffer.length - 1) break;
      buffer = buffer.slice(newline + width);
      const event = takeLine(line);
      if (event !== undefined) yield event;
    }
  }
  buffer += decoder.decode();
  for (const line of buffer.split(/\r\n|\r|\n/)) {
    const event = takeLine(line);
    if (event !== undefined) yield event;
  }
  const last = takeLine('');
  if (last !== undefined) yield last;
}
