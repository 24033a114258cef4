import type { FieldErrors } from '@common/api-error';
import { errorMessages } from '@common/messages';
import { controlCharacterProblem } from '@common/text';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Top-level body fields that may hold line feeds and tabs (a report's reason): none unless named. */
    multilineFields?: readonly string[];
  }
}

/**
 * Every API request's path parameters, query string and JSON body (keys and values, however deep),
 * refused with a 400 naming the field when a text holds a control character, before the route's
 * schema runs. Here rather than in each schema so that no route and no field can forget it: a NUL
 * reaching PostgreSQL answers 500, and the other controls hide in logs, CSV and the operator's
 * screens. A file's bytes (a picture) are not text and are left alone.
 */
export function registerControlCharacterCheck(api: FastifyInstance): void {
  // Last of each route's own preValidation hooks, so that it also reads the fields a multipart
  // route attaches to its body in a hook of its own (sign-up's name, e-mail and password).
  api.addHook('onRoute', (route) => {
    const own = route.preValidation ? [route.preValidation].flat() : [];
    route.preValidation = [...own, refuseControlCharacters];
  });
}

async function refuseControlCharacters(request: FastifyRequest): Promise<void> {
  const fields = controlCharacterFields(request);
  if (fields) throw new AppError('validation', errorMessages.validation, fields);
}

function controlCharacterFields(request: FastifyRequest): FieldErrors | undefined {
  const multiline = new Set(request.routeOptions.config?.multilineFields ?? []);
  const fields: FieldErrors = {};
  const note = (field: string, text: string, allowLines: boolean) => {
    const problem = controlCharacterProblem(text, allowLines);
    if (problem && !fields[field]?.includes(problem)) (fields[field] ??= []).push(problem);
  };
  // Iterative, so a body nested a hundred thousand levels deep cannot overflow the stack. Each text
  // is reported under the top-level name it came in (a parameter, or the body's field).
  const pending: Array<[value: unknown, field: string | undefined, allowLines: boolean]> = [
    [request.params, undefined, false],
    [request.query, undefined, false],
  ];
  const { body } = request;
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && !ArrayBuffer.isView(body)) {
    // The body's own fields: the ones the route names may span lines.
    for (const [key, inner] of Object.entries(body)) {
      note(key, key, false);
      pending.push([inner, key, multiline.has(key)]);
    }
  } else if (!ArrayBuffer.isView(body)) pending.push([body, undefined, false]);
  while (pending.length > 0) {
    const [value, field, allowLines] = pending.pop()!;
    if (typeof value === 'string') note(field ?? '_', value, allowLines);
    else if (Array.isArray(value)) for (const item of value) pending.push([item, field ?? '_', allowLines]);
    else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      for (const [key, inner] of Object.entries(value)) {
        note(field ?? key, key, false);
        pending.push([inner, field ?? key, allowLines]);
      }
    }
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}
