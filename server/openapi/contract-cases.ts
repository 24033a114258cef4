// Requests made from the OpenAPI document's own schemas: one valid value per schema (its example
// when it has one), and invalid variants of a body (a field missing, of the wrong type, out of
// range, one nobody asked for) and of each query parameter.

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  examples?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
};

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : (schema.anyOf ?? schema.oneOf ?? []).flatMap(typesOf);

/** One value the schema accepts, as far as a schema alone can tell. */
export function validValue(schema: JsonSchema, name = ''): unknown {
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return validValue(variants.find((one) => one.type !== 'null') ?? variants[0]!, name);
  const type = typesOf(schema).find((one) => one !== 'null') ?? 'string';
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = validValue(schema.properties?.[key] ?? {}, key);
      return value;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (schema.format === 'email' || /email/i.test(name)) return 'ana@example.com';
      if (/url/i.test(name)) return 'https://example.com/contrato';
      return 'Ejemplo'.padEnd(schema.minLength ?? 0, 'x');
  }
}

/** A value of another JSON type than the schema takes. */
function wrongType(schema: JsonSchema): unknown {
  const types = typesOf(schema);
  if (types.includes('string')) return types.includes('number') ? [] : 12345;
  if (types.includes('integer') || types.includes('number')) return 'no-es-un-numero';
  if (types.includes('boolean')) return 'sí';
  if (types.includes('array')) return 'no-es-una-lista';
  return 42;
}

export interface Variant {
  name: string;
  /** True when the API must refuse it (4xx); false when it may accept it too. */
  mustRefuse: boolean;
}

/** Invalid bodies for an object schema, each with what it breaks. */
export function invalidBodies(schema: JsonSchema, valid: Record<string, unknown>): Array<Variant & { body: unknown }> {
  const cases: Array<Variant & { body: unknown }> = [
    { name: 'a list instead of an object', mustRefuse: true, body: [valid] },
    { name: 'a string instead of an object', mustRefuse: true, body: 'texto' },
  ];
  if (schema.additionalProperties === false) {
    cases.push({ name: 'an extra field', mustRefuse: true, body: { ...valid, campoInventado: 1 } });
  }
  for (const key of schema.required ?? []) {
    const { [key]: _left, ...rest } = valid;
    cases.push({ name: `without ${key}`, mustRefuse: true, body: rest });
  }
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    cases.push({ name: `${key} of the wrong type`, mustRefuse: true, body: { ...valid, [key]: wrongType(property) } });
    if (property.maxLength !== undefined) {
      cases.push({ name: `${key} too long`, mustRefuse: true, body: { ...valid, [key]: 'x'.repeat(property.maxLength + 1) } });
    }
    if (property.maximum !== undefined && property.maximum < Number.MAX_SAFE_INTEGER) {
      cases.push({ name: `${key} above its maximum`, mustRefuse: true, body: { ...valid, [key]: property.maximum + 1 } });
    }
    if (property.minimum !== undefined && property.minimum > Number.MIN_SAFE_INTEGER) {
      cases.push({ name: `${key} below its minimum`, mustRefuse: true, body: { ...valid, [key]: property.minimum - 1 } });
    }
  }
  return cases;
}

/** Invalid query strings: each parameter with a value of the wrong kind, or out of range. */
export function invalidQueries(parameters: Array<{ name: string; schema: JsonSchema }>): Array<Variant & { query: Record<string, string> }> {
  const cases: Array<Variant & { query: Record<string, string> }> = [];
  for (const { name, schema } of parameters) {
    const types = typesOf(schema);
    if (types.includes('integer') || types.includes('number')) {
      cases.push({ name: `${name} not a number`, mustRefuse: true, query: { [name]: 'abc' } });
      if (schema.maximum !== undefined) cases.push({ name: `${name} too large`, mustRefuse: true, query: { [name]: String(schema.maximum + 1) } });
      if (schema.minimum !== undefined) cases.push({ name: `${name} too small`, mustRefuse: true, query: { [name]: String(schema.minimum - 1) } });
    } else if (schema.enum) {
      cases.push({ name: `${name} not one of its values`, mustRefuse: true, query: { [name]: 'valor-inventado' } });
    } else if (schema.maxLength !== undefined) {
      cases.push({ name: `${name} too long`, mustRefuse: true, query: { [name]: 'x'.repeat(schema.maxLength + 1) } });
    }
  }
  return cases;
}
