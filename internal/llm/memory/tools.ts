// The memory tools the model gets next to the game's: remember, recall, forget. Answered by Skipper, never sent to
// the game; arguments validated with zod and every failure returned as a result the model can read (rule 8).
import { z } from 'zod';
import type { ToolResult, ToolSpec } from '../../shared/index.js';
import type { LocalTool } from '../dispatch.js';

export const NOTE_MAX_CHARS = 1000;

export interface MemoryOperations {
  remember(text: string, tags: string[]): Promise<ToolResult>;
  recall(query: string): Promise<ToolResult>;
  forget(id: number): Promise<ToolResult>;
}

const rememberArgs = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'text is empty: say what to remember')
    .max(NOTE_MAX_CHARS, `text is longer than ${NOTE_MAX_CHARS} characters: keep the note short`),
  tags: z.array(z.string().trim().min(1).max(40)).max(8).optional(),
});
const recallArgs = z.object({ query: z.string().trim().max(500) });
const forgetArgs = z.object({ id: z.coerce.number().int().positive() });

const SPECS: Record<'remember' | 'recall' | 'forget', ToolSpec> = {
  remember: {
    name: 'remember',
    description:
      'Keep a short note for later sessions (a price, a route, what to avoid). Free. No passwords or keys: refused.',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: `at most ${NOTE_MAX_CHARS} characters` },
        tags: { type: 'array', items: { type: 'string' }, description: 'keywords' },
      },
      required: ['text'],
    },
    readOnly: true,
  },
  recall: {
    name: 'recall',
    description: 'Search your memory (notes, lessons, past turns) by keywords. Free.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    },
    readOnly: true,
  },
  forget: {
    name: 'forget',
    description: 'Delete the memory entry shown as #id. Free.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'integer' } },
      required: ['id'],
    },
    readOnly: true,
  },
};

function invalid(tool: string, error: z.ZodError): ToolResult {
  const detail = error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('; ');
  return { text: `${tool}: invalid arguments — ${detail}`, isError: true, code: 'invalid_params' };
}

export function memoryTools(operations: MemoryOperations): LocalTool[] {
  return [
    {
      spec: SPECS.remember,
      run: async (args) => {
        const parsed = rememberArgs.safeParse(args);
        if (!parsed.success) return invalid('remember', parsed.error);
        return operations.remember(parsed.data.text, parsed.data.tags ?? []);
      },
    },
    {
      spec: SPECS.recall,
      run: async (args) => {
        const parsed = recallArgs.safeParse(args);
        if (!parsed.success) return invalid('recall', parsed.error);
        return operations.recall(parsed.data.query);
      },
    },
    {
      spec: SPECS.forget,
      run: async (args) => {
        const parsed = forgetArgs.safeParse(args);
        if (!parsed.success) return invalid('forget', parsed.error);
        return operations.forget(parsed.data.id);
      },
    },
  ];
}

export const MEMORY_TOOL_NAMES: readonly string[] = Object.keys(SPECS);
