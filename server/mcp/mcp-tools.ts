import type { Link, LinkList } from '@common/links/link-schemas';
import { linkMessages } from '@common/links/link-messages';
import { createLinkArgsSchema, findLinksArgsSchema, linkStatsArgsSchema, updateLinkArgsSchema } from '@common/mcp/mcp-schemas';
import type { LinkStats } from '@common/stats/stats-schemas';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../app-context';
import type { DatabaseReader } from '../db/database-reader';
import { AppError } from '../http/app-error';
import type { CreationQuota } from '../links/creation-quota';
import { linkActorFor } from '../links/link-actor';
import { editedLinkForApi } from '../links/link-answer';
import { createOne } from '../links/link-batch';
import { editLink } from '../links/link-edit';
import { findLinks } from '../links/link-list';
import { findWorkspaceLink } from '../links/links.queries';
import { statsOfLink } from '../stats/link-stats';

// The tools an assistant may call, each running the code of the REST route it mirrors, in the
// token's workspace, through linkActorFor (workspaceFor): the same role checks, the same answers.

/** What a tool call runs with: the HTTP request (its token and user), the app, and the shared helpers. */
export interface ToolCall {
  request: FastifyRequest;
  context: AppContext;
  /** The links' and statistics' reader, off the event loop as the routes' are. */
  reader: DatabaseReader;
  /** The hourly creation quota, the one POST /api/links counts against. */
  creationQuota: CreationQuota;
}

/** A tool's answer: a short Spanish sentence for the person, and the API's own object for the assistant. */
export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
}

export interface McpTool<Args extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  args: Args;
  /** The token scope it needs: a read token may only call the 'read' ones. */
  scope: 'read' | 'write';
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  /** `input` is `raw` once the tool's schema has checked and shaped it. */
  run(call: ToolCall, input: z.output<Args>, raw: unknown): Promise<ToolAnswer>;
}

const clicks = (count: number) => `${count.toLocaleString('es-ES')} ${count === 1 ? 'clic' : 'clics'}`;

const linkLine = (link: Link) => `${link.title}: ${link.shortLink} → ${link.originalUrl} (${clicks(link.clicks)}, id ${link.id})`;

const createLinkTool: McpTool<typeof createLinkArgsSchema> = {
  name: 'create_link',
  title: 'Crear un link corto',
  description:
    'Crea un link corto en el espacio de trabajo del token y devuelve su dirección corta (shortLink), su QR y el resto de sus datos. ' +
    'Obligatorios: title (el nombre del link) y longUrl (la dirección de destino, http o https). Opcionales: customUrl (un alias: ' +
    'letras, números, - y _), tags (etiquetas), domain (un dominio propio verificado del espacio), forwardQuery, redirectType ' +
    '(302 por defecto, 301, 307 o 308), rules (reglas por país, dispositivo, idioma...) y variants (una prueba A/B). Necesita un token de escritura.',
  args: createLinkArgsSchema,
  scope: 'write',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ request, context, creationQuota }, _input, raw) {
    const actor = await linkActorFor(request, context.database.db, 'write');
    // The bulk route's creation: the same checks, the same hourly quota, the same answer.
    const result = await createOne(context, actor, raw, (create) => creationQuota.run(actor.user.id, undefined, create));
    if ('error' in result) throw new AppError(result.error.code, result.error.message, result.error.fields);
    return { text: `Link creado: ${result.link.shortLink} → ${result.link.originalUrl} (id ${result.link.id}).`, structured: { link: result.link } };
  },
};

const findLinksTool: McpTool<typeof findLinksArgsSchema> = {
  name: 'find_links',
  title: 'Buscar links',
  description:
    'Busca links del espacio de trabajo del token, del más reciente al más antiguo por defecto. Todos los argumentos son opcionales: ' +
    'q (texto que aparece en el título), tag (una etiqueta), status (active, paused, expired o disabled), domain (un dominio propio), ' +
    'createdBy (id de quien lo creó), sort (created, clicks o title), order (desc o asc), limit (1 a 100, 20 por defecto) y cursor ' +
    '(el nextCursor de la respuesta anterior, para la página siguiente). Cada link trae su id, que usan update_link y link_stats.',
  args: findLinksArgsSchema,
  scope: 'read',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ request, context, reader }, input) {
    const { workspace } = await linkActorFor(request, context.database.db, 'read');
    const list: LinkList = await findLinks(reader, context, workspace, input);
    const lines = list.links.map((link) => `- ${linkLine(link)}`);
    const head = list.links.length === 0 ? 'No hay links que coincidan.' : `${list.links.length === 1 ? '1 link' : `${list.links.length} links`}:`;
    const more = list.nextCursor ? `\nHay más: pide la página siguiente con cursor «${list.nextCursor}».` : '';
    return { text: [head, ...lines].join('\n') + more, structured: list };
  },
};

const updateLinkTool: McpTool<typeof updateLinkArgsSchema> = {
  name: 'update_link',
  title: 'Editar un link',
  description:
    'Cambia un link del espacio de trabajo del token, dado su id; solo los campos que se envían: title, longUrl, customUrl (null lo ' +
    'quita; el alias anterior sigue redirigiendo), paused (true lo pausa), expiresAt (fecha ISO 8601 futura, o null), maxClicks ' +
    '(o null), password (o null para quitarla), tags (la lista completa), domain, forwardQuery, redirectType, rules y variants. ' +
    'Necesita un token de escritura.',
  args: updateLinkArgsSchema,
  scope: 'write',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ request, context }, { id, ...changes }) {
    const actor = await linkActorFor(request, context.database.db, 'write');
    const { link } = await editedLinkForApi(context, actor, await editLink(context, actor, id, changes, request.log));
    return { text: `Link actualizado: ${linkLine(link)}.`, structured: { link } };
  },
};

const linkStatsTool: McpTool<typeof linkStatsArgsSchema> = {
  name: 'link_stats',
  title: 'Estadísticas de un link',
  description:
    'Las estadísticas de un link del espacio de trabajo del token, dado su id: clics y visitantes por día, países, ciudades, ' +
    'dispositivos, navegadores, sistemas, referentes y escaneos del QR. range: 7d, 30d, 90d o all (todo, por defecto).',
  args: linkStatsArgsSchema,
  scope: 'read',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ request, context, reader }, { id, range }) {
    const { workspace } = await linkActorFor(request, context.database.db, 'read');
    const link = await findWorkspaceLink(context.database.db, workspace.id, id);
    if (!link) throw new AppError('not_found', linkMessages.notFound);
    const stats: LinkStats = await statsOfLink(reader, link, range);
    return { text: `${link.title}: ${clicks(stats.total)} del ${stats.from} al ${stats.to}.`, structured: stats };
  },
};

export const mcpTools: McpTool[] = [createLinkTool, findLinksTool, updateLinkTool, linkStatsTool] as McpTool[];
