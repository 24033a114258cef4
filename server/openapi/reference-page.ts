// The API reference at /api/docs/: one Spanish HTML page built from the OpenAPI document itself,
// on the server, with no script at all. Readable on a 375 px phone (everything wraps, nothing
// scrolls sideways), navigable by keyboard and headings, and within the site's CSP (its stylesheet
// is a file of ours). It replaced Swagger UI, whose own interface is English, failed axe (images
// without text, unlabelled fields and selects, low contrast) and was 981 px wide on a phone.

type Schema = {
  type?: string | string[];
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  $ref?: string;
  const?: unknown;
};

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
  example?: unknown;
}

interface Response {
  description?: string;
  content?: Record<string, { schema?: Schema }>;
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, Response>;
  security?: Array<Record<string, unknown>>;
}

export interface OpenApiDocument {
  info: { title: string; description?: string };
  servers?: Array<{ url: string }>;
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, { description?: string }> };
}

export const REFERENCE_CSS_FILE = 'referencia.css';

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

/** The document's texts: plain text with `code` in backticks. */
const prose = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const inLabels: Record<string, string> = { path: 'en la ruta', query: 'en la consulta', header: 'cabecera', cookie: 'cookie' };
const typeLabels: Record<string, string> = {
  string: 'texto',
  integer: 'entero',
  number: 'número',
  boolean: 'sí/no (boolean)',
  object: 'objeto',
  array: 'lista',
  null: 'null',
};
// zod's integers carry JavaScript's safe range as their bounds: no limit worth printing.
const SAFE = Number.MAX_SAFE_INTEGER;

const anchorOf = (method: string, path: string) => `op-${method}-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
const tagAnchor = (tag: string) => `seccion-${tag.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

function resolve(doc: OpenApiDocument, schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolve(doc, doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')]);
  return schema;
}

function typeOf(doc: OpenApiDocument, raw: Schema): string {
  const schema = resolve(doc, raw);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map((one) => typeOf(doc, one)))].join(' o ');
  if (schema.const !== undefined) return `el valor ${JSON.stringify(schema.const)}`;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const labels = types.map((type) => {
    if (type === 'string' && schema.format === 'date-time') return 'fecha y hora (ISO 8601)';
    if (type === 'string' && schema.format) return `texto (${schema.format})`;
    if (type === 'array' && schema.items) return `lista de ${typeOf(doc, schema.items)}`;
    return typeLabels[type] ?? type;
  });
  return labels.join(' o ') || 'cualquier valor';
}

/** The rules worth a reader's eye: allowed values, lengths, bounds, default. */
function rulesOf(doc: OpenApiDocument, raw: Schema): string[] {
  const schema = resolve(doc, raw);
  const rules: string[] = [];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) for (const one of variants) rules.push(...rulesOf(doc, one));
  if (schema.enum) rules.push(`uno de: ${schema.enum.map((value) => `<code>${escape(JSON.stringify(value))}</code>`).join(', ')}`);
  if (schema.minLength !== undefined && schema.maxLength !== undefined) rules.push(`de ${schema.minLength} a ${schema.maxLength} caracteres`);
  else if (schema.maxLength !== undefined) rules.push(`hasta ${schema.maxLength} caracteres`);
  else if (schema.minLength !== undefined && schema.minLength > 0) rules.push(`al menos ${schema.minLength} caracteres`);
  if (schema.minimum !== undefined && schema.minimum > -SAFE) rules.push(`mínimo ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum < SAFE) rules.push(`máximo ${schema.maximum}`);
  if (schema.maxItems !== undefined) rules.push(`hasta ${schema.maxItems} elementos`);
  if (schema.default !== undefined) rules.push(`por defecto <code>${escape(JSON.stringify(schema.default))}</code>`);
  return rules;
}

/** An object's fields as a list, nested objects and lists of objects inside their field (a few levels). */
function fieldsOf(doc: OpenApiDocument, raw: Schema | undefined, depth = 0): string {
  const schema = resolve(doc, raw);
  const objectOf = (one: Schema): Schema | undefined => {
    const resolved = resolve(doc, one);
    if (resolved.properties) return resolved;
    if (resolved.items) return objectOf(resolved.items);
    const variants = resolved.anyOf ?? resolved.oneOf;
    return variants?.map(objectOf).find(Boolean);
  };
  const object = objectOf(schema);
  if (!object?.properties || depth > 4) return '';
  const required = new Set(object.required ?? []);
  const items = Object.entries(object.properties).map(([name, field]) => {
    const resolved = resolve(doc, field);
    const rules = rulesOf(doc, resolved);
    const nested = objectOf(resolved) && objectOf(resolved) !== object ? fieldsOf(doc, resolved, depth + 1) : '';
    return `<li><code class="name">${escape(name)}</code> <span class="type">${escape(typeOf(doc, resolved))}</span>${
      required.has(name) ? ' <span class="required">obligatorio</span>' : ''
    }${resolved.description ? `<p>${prose(resolved.description)}</p>` : ''}${rules.length ? `<p class="rules">${rules.join(' · ')}</p>` : ''}${nested}</li>`;
  });
  return `<ul class="fields">${items.join('')}</ul>`;
}

function securityOf(operation: Operation): string {
  const schemes = new Set((operation.security ?? []).flatMap((entry) => Object.keys(entry)));
  if (schemes.has('bearerAuth')) return 'Token de API (<code>read</code> basta para leer; <code>write</code> para cambiar) o la sesión de la web.';
  if (schemes.has('cookieAuth')) return 'Solo con la sesión de la web (un token de API no llega aquí).';
  return 'Pública: no hace falta identificarse.';
}

function exampleOf(schema: Schema): string {
  const example = schema.examples?.[0];
  return example === undefined ? '' : `<p class="label">Ejemplo</p><pre><code>${escape(JSON.stringify(example, null, 2))}</code></pre>`;
}

function operationHtml(doc: OpenApiDocument, method: string, path: string, operation: Operation): string {
  const parts: string[] = [];
  const title = operation.summary ?? `${method.toUpperCase()} ${path}`;
  parts.push(`<h3 id="${anchorOf(method, path)}">${escape(title)}</h3>`);
  parts.push(`<p class="endpoint"><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></p>`);
  if (operation.description) parts.push(`<p>${prose(operation.description)}</p>`);
  parts.push(`<p><span class="label">Acceso:</span> ${securityOf(operation)}</p>`);

  const parameters = operation.parameters ?? [];
  if (parameters.length) {
    const items = parameters.map((parameter) => {
      const schema = resolve(doc, parameter.schema);
      const rules = rulesOf(doc, schema);
      return `<li><code class="name">${escape(parameter.name)}</code> <span class="type">${escape(typeOf(doc, schema))}, ${
        inLabels[parameter.in] ?? parameter.in
      }</span>${parameter.required ? ' <span class="required">obligatorio</span>' : ''}${
        parameter.description ? `<p>${prose(parameter.description)}</p>` : ''
      }${rules.length ? `<p class="rules">${rules.join(' · ')}</p>` : ''}</li>`;
    });
    parts.push(`<h4>Parámetros</h4><ul class="fields">${items.join('')}</ul>`);
  }

  const body = operation.requestBody?.content;
  if (body) {
    for (const [type, { schema }] of Object.entries(body)) {
      const resolved = resolve(doc, schema);
      parts.push(`<h4>Cuerpo (<code>${escape(type)}</code>)</h4>${fieldsOf(doc, resolved) || `<p>${escape(typeOf(doc, resolved))}</p>`}${exampleOf(resolved)}`);
    }
  }

  const responses = Object.entries(operation.responses ?? {});
  const success = responses.filter(([status]) => status.startsWith('2'));
  const failures = responses.filter(([status]) => !status.startsWith('2'));
  const successItems = success.map(([status, response]) => {
    const content = Object.entries(response.content ?? {});
    const fields = content
      .map(([type, { schema }]) => {
        const list = fieldsOf(doc, schema);
        return list ? `<details><summary>Campos de la respuesta (<code>${escape(type)}</code>)</summary>${list}</details>` : `<p>Contenido: <code>${escape(type)}</code></p>`;
      })
      .join('');
    return `<li><span class="status">${escape(status)}</span> ${prose(response.description ?? '')}${fields}</li>`;
  });
  const failureItems = failures.map(([status, response]) => `<li><span class="status">${escape(status)}</span> ${prose(response.description ?? '')}</li>`);
  parts.push(`<h4>Respuestas</h4><ul class="responses">${successItems.join('')}${failureItems.join('')}</ul>`);
  return `<article class="operation">${parts.join('')}</article>`;
}

/** The whole page, from the document as /api/openapi.json serves it. */
export function renderReferencePage(doc: OpenApiDocument, cssHref: string): string {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method]! })),
  );
  const tagNames = [...new Set([...(doc.tags ?? []).map((tag) => tag.name), ...operations.map(({ operation }) => operation.tags?.[0] ?? 'Servicio')])];
  const byTag = tagNames
    .map((name) => ({
      name,
      description: doc.tags?.find((tag) => tag.name === name)?.description,
      operations: operations.filter(({ operation }) => (operation.tags?.[0] ?? 'Servicio') === name),
    }))
    .filter((tag) => tag.operations.length > 0);

  const schemes = Object.entries(doc.components?.securitySchemes ?? {})
    .map(([name, scheme]) => `<li><span class="label">${name === 'bearerAuth' ? 'Token de API' : name === 'cookieAuth' ? 'Sesión de la web' : escape(name)}:</span> ${prose(scheme.description ?? '')}</li>`)
    .join('');
  const index = byTag
    .map(
      (tag) =>
        `<li><a href="#${tagAnchor(tag.name)}">${escape(tag.name)}</a><ul>${tag.operations
          .map(({ method, path, operation }) => `<li><a href="#${anchorOf(method, path)}">${escape(operation.summary ?? `${method.toUpperCase()} ${path}`)}</a></li>`)
          .join('')}</ul></li>`,
    )
    .join('');
  const sections = byTag
    .map(
      (tag) =>
        `<section aria-labelledby="${tagAnchor(tag.name)}"><h2 id="${tagAnchor(tag.name)}">${escape(tag.name)}</h2>${
          tag.description ? `<p>${prose(tag.description)}</p>` : ''
        }${tag.operations.map(({ method, path, operation }) => operationHtml(doc, method, path, operation)).join('')}</section>`,
    )
    .join('');
  const server = doc.servers?.[0]?.url;

  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API de Corto: referencia</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${escape(cssHref)}">
</head>
<body>
<a class="skip" href="#contenido">Saltar al contenido</a>
<header class="top"><a href="/">Corto</a></header>
<main id="contenido">
<h1>API de Corto: referencia</h1>
${doc.info.description ? `<p>${prose(doc.info.description)}</p>` : ''}
<p>${server ? `Dirección de esta instancia: <code>${escape(server)}</code>. ` : ''}El mismo contenido, para programas: <a href="/api/openapi.json">documento OpenAPI 3.1 (JSON)</a>.</p>
<section aria-labelledby="acceso"><h2 id="acceso">Cómo identificarse</h2><ul class="plain">${schemes}</ul>
<p>Todas las respuestas de error llevan <code>{ "error": { "code", "message", "fields" } }</code>, con el mensaje en español; <code>fields</code> tiene los mensajes de cada campo cuando los datos no son válidos.</p></section>
<nav aria-labelledby="indice"><h2 id="indice">Índice</h2><ul class="index">${index}</ul></nav>
${sections}
</main>
</body>
</html>
`;
}

/** The page's stylesheet: Corto's dark slate and teal, sized for a phone first. */
export const REFERENCE_CSS = `*,*::before,*::after{box-sizing:border-box}
html{color-scheme:dark}
body{margin:0;background:#020617;color:#e2e8f0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}
a{color:#5eead4}
a:focus-visible,summary:focus-visible{outline:2px solid #5eead4;outline-offset:2px;border-radius:4px}
.skip{position:absolute;left:-9999px;top:0;background:#2dd4bf;color:#020617;padding:.5rem 1rem;font-weight:600}
.skip:focus{left:1rem;top:1rem;z-index:10}
.top{border-bottom:1px solid #1e293b;padding:.75rem 1rem}
.top a{color:#f1f5f9;font-weight:700;font-size:1.25rem;text-decoration:none}
main{max-width:60rem;margin:0 auto;padding:1.5rem 1rem 4rem}
h1{font-size:1.75rem;line-height:1.2;margin:0 0 1rem}
h2{font-size:1.35rem;margin:2.5rem 0 .75rem;padding-top:.5rem;border-top:1px solid #1e293b}
h3{font-size:1.1rem;margin:0 0 .25rem}
h4{font-size:.95rem;margin:1rem 0 .25rem;color:#cbd5e1}
p{margin:.25rem 0}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875em}
code{background:#0f172a;border:1px solid #1e293b;border-radius:4px;padding:0 .25em}
pre{background:#0f172a;border:1px solid #1e293b;border-radius:8px;padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0}
pre code{border:0;padding:0;background:none}
.operation{border:1px solid #1e293b;border-radius:12px;padding:1rem;margin:1rem 0;background:#0b1222}
.endpoint{margin:.25rem 0 .5rem}
.method{display:inline-block;min-width:4.2rem;text-align:center;border-radius:6px;padding:0 .4rem;font-weight:700;font-size:.8rem;color:#020617}
.method-get{background:#5eead4}.method-post{background:#93c5fd}.method-put{background:#fcd34d}.method-patch{background:#c4b5fd}.method-delete{background:#fca5a5}
.label{font-weight:600;color:#cbd5e1}
.fields,.responses{list-style:none;margin:.25rem 0;padding:0}
.fields li,.responses li{border-top:1px solid #1e293b;padding:.4rem 0}
.fields .fields{margin-left:.75rem;padding-left:.75rem;border-left:2px solid #1e293b}
.name{color:#f1f5f9;font-weight:600}
.type{color:#cbd5e1;font-size:.9rem}
.required{color:#fcd34d;font-size:.85rem}
.rules{color:#cbd5e1;font-size:.9rem}
.status{display:inline-block;min-width:2.5rem;font-weight:700;color:#f1f5f9}
details{margin:.25rem 0}
summary{cursor:pointer;color:#5eead4}
.index,.index ul{padding-left:1.25rem}
.plain{padding-left:1.25rem}
`;
