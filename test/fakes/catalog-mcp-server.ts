// A SpaceMolt-shaped MCP server that only lists tools, built from a catalogue fixture (test/fixtures/spacemolt/
// catalog-*.json): one grouped tool per catalogue tool, `action` with its enum and every action's parameters, and a
// description with one `- action(param, optional?): …` line per action (the shape minimolt's face writes). `edit`
// changes the catalogue first (rename a parameter, drop an action) so a test can play a server that moved on.
// tools/call is refused loudly: `skipper doctor` must never call a game tool.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { closeLocalServer, listenLocally } from './local-server.js';

export interface CatalogParam {
  type: string;
  enum?: string[];
  required: boolean;
}
export interface CatalogAction {
  name: string;
  mutation: boolean;
  params: Record<string, CatalogParam>;
}
export interface CatalogTool {
  name: string;
  actions: CatalogAction[];
}
export interface Catalog {
  server_version: string;
  tools: CatalogTool[];
}

export function readCatalog(file: string): Catalog {
  const path = fileURLToPath(new URL(`../fixtures/spacemolt/${file}`, import.meta.url));
  return JSON.parse(readFileSync(path, 'utf8')) as Catalog;
}

function toolOf(tool: CatalogTool): {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
} {
  const properties: Record<string, unknown> = {
    action: { type: 'string', enum: tool.actions.map((action) => action.name) },
  };
  for (const action of tool.actions) {
    for (const [name, param] of Object.entries(action.params)) properties[name] ??= { type: param.type };
  }
  const lines = tool.actions.map((action) => {
    const params = Object.entries(action.params).map(([name, param]) => (param.required ? name : `${name}?`));
    return `- ${action.name}(${params.join(', ')}): ${action.name}`;
  });
  return {
    name: tool.name,
    description: [`${tool.name} tools.`, 'Actions:', ...lines].join('\n'),
    inputSchema: { type: 'object', properties, required: ['action'] },
  };
}

export interface CatalogServer {
  url: string;
  /** tools/call requests received (a doctor run must leave this at 0). */
  calls: number;
  close(): Promise<void>;
}

export async function listenCatalog(catalog: Catalog, options: { name?: string } = {}): Promise<CatalogServer> {
  const tools = catalog.tools.map(toolOf);
  const state = { calls: 0 };
  const http = createServer((request, response) => {
    // Stateless: a server and transport per request is all tools/list needs.
    const server = new Server(
      { name: options.name ?? 'spacemolt', version: catalog.server_version },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, () => {
      state.calls += 1;
      return { isError: true, content: [{ type: 'text', text: 'Error: not_allowed: this fake only lists tools' }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => void transport.close().catch(() => {}));
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
      });
  });
  const port = await listenLocally(http);
  return {
    url: `http://127.0.0.1:${port}/mcp/v2`,
    get calls() {
      return state.calls;
    },
    close: () => closeLocalServer(http),
  };
}

/** A copy of the catalogue with one parameter of one action renamed. */
export function renameParam(
  catalog: Catalog,
  edit: { tool: string; action: string; from: string; to: string },
): Catalog {
  const copy = JSON.parse(JSON.stringify(catalog)) as Catalog;
  const action = copy.tools.find((tool) => tool.name === edit.tool)?.actions.find((each) => each.name === edit.action);
  const param = action?.params[edit.from];
  if (!action || !param) throw new Error(`no ${edit.tool} ${edit.action} ${edit.from} in the catalogue`);
  delete action.params[edit.from];
  action.params[edit.to] = param;
  return copy;
}
