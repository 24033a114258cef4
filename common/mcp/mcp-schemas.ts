import { z } from 'zod';
import '../zod-setup';
import { createLinkSchema, listLinksQuerySchema, updateLinkSchema } from '../links/link-schemas';
import { statsQuerySchema } from '../stats/stats-schemas';
import { mcpMessages as m } from './mcp-messages';

// The MCP tools' arguments, from the very schemas the REST routes validate with (and the OpenAPI
// document describes): a tool takes what its route takes, and refuses what it refuses, in the same words.

/** A link's id, as find_links and every link answer give it. */
export const linkIdSchema = z
  .number({ error: m.linkIdInvalid })
  .int(m.linkIdInvalid)
  .min(1, m.linkIdInvalid)
  .max(Number.MAX_SAFE_INTEGER, m.linkIdInvalid)
  .describe('El id del link (el campo «id» de find_links o de create_link).');

/** create_link: POST /api/links's body (strict, as the route takes it). */
export const createLinkArgsSchema = createLinkSchema.strict();

/** find_links: GET /api/links's query (search, filters, sort, page). */
export const findLinksArgsSchema = listLinksQuerySchema.strict();

/** update_link: the link's id and PATCH /api/links/:id's body. */
export const updateLinkArgsSchema = z.strictObject({ id: linkIdSchema, ...updateLinkSchema.shape });

/** link_stats: the link's id and GET /api/links/:id/stats's range. */
export const linkStatsArgsSchema = z.strictObject({ id: linkIdSchema, range: statsQuerySchema.shape.range });

/**
 * POST /api/mcp's body as the route checks it before the MCP SDK reads it: one JSON-RPC 2.0
 * message (MCP over Streamable HTTP sends no batches since its 2025-06-18 revision).
 */
export const mcpMessageSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0', { error: m.jsonRpcInvalid }),
    id: z.union([z.string(), z.number()]).optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ examples: [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }] });

/** POST /api/mcp's answer to a request: its JSON-RPC 2.0 response (a tool's refusal is a result with isError). */
export const mcpAnswerSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.looseObject({ code: z.number().int(), message: z.string() }).optional(),
  })
  .meta({ examples: [{ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'find_links', description: 'Busca links del espacio de trabajo del token...' }] } }] });
