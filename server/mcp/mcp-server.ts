import type { FieldErrors } from '@common/api-error';
import { mcpMessages } from '@common/mcp/mcp-messages';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AppError } from '../http/app-error';
import { type McpTool, mcpTools, type ToolCall } from './mcp-tools';

// One MCP server per HTTP request (the endpoint is stateless), answering tools/list and tools/call.
// The SDK's low-level Server rather than its McpServer: McpServer checks a tool's arguments itself
// and words the refusal in English ("Input validation error: Invalid arguments for tool..."),
// where Corto answers in Spanish, in the API's own envelope, as its routes do.

export const MCP_SERVER_INFO = { name: 'corto', version: '1' };

const INSTRUCTIONS =
  'Corto es un acortador de links. Con estas herramientas creas links cortos, los buscas, los editas y lees sus estadísticas, ' +
  'siempre en el espacio de trabajo del token. Busca un link con find_links para conocer su id antes de editarlo o de pedir sus estadísticas.';

/** A tool's arguments as its JSON Schema: what the assistant reads to know what to send. */
function inputSchemaOf(tool: McpTool): Tool['inputSchema'] {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.args, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, type: 'object' } as Tool['inputSchema'];
}

const listedTools: Tool[] = mcpTools.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: inputSchemaOf(tool),
  annotations: { title: tool.title, ...tool.annotations },
}));

/** A refusal as the assistant gets it: the Spanish sentence to read, and the API's error envelope. */
function refusal(code: string, message: string, fields?: FieldErrors): CallToolResult {
  const detail = fields ? Object.entries(fields).map(([field, messages]) => `\n- ${field}: ${messages.join(' ')}`).join('') : '';
  return {
    isError: true,
    content: [{ type: 'text', text: message + detail }],
    structuredContent: { error: { code, message, ...(fields ? { fields } : {}) } },
  };
}

/** zod's issues keyed by the argument they are about ('_' for the arguments as a whole). */
function fieldsOf(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) (fields[String(issue.path[0] ?? '_')] ??= []).push(issue.message);
  return fields;
}

async function callTool(call: ToolCall, name: string, args: unknown): Promise<CallToolResult> {
  const tool = mcpTools.find((one) => one.name === name);
  if (!tool) return refusal('not_found', mcpMessages.unknownTool(name));
  // Before anything is read: a read token learns at once that it may not write.
  if (tool.scope === 'write' && call.request.apiToken?.scope !== 'write') return refusal('insufficient_scope', mcpMessages.readOnlyToken);
  const parsed = tool.args.safeParse(args ?? {});
  if (!parsed.success) return refusal('validation', `${mcpMessages.argumentsInvalid} (${tool.name}):`, fieldsOf(parsed.error.issues));
  try {
    const answer = await tool.run(call, parsed.data, args ?? {});
    return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured };
  } catch (error) {
    if (error instanceof AppError) return refusal(error.code, error.message, error.fields);
    // Ours, not the caller's (the database gone...): logged with its cause, answered without it.
    call.request.log.error({ err: error, tool: tool.name }, 'MCP tool failed');
    return refusal('internal', mcpMessages.internal);
  }
}

/** The MCP server that answers one request, acting as its token (the SDK marks Server deprecated for McpServer: see the note above). */
export function mcpServerFor(call: ToolCall): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(call, request.params.name, request.params.arguments));
  return server;
}
