// What the MCP endpoint (POST /api/mcp) and its tools say, in Spanish like the rest of the API.

export const mcpMessages = {
  tokenRequired:
    'El servidor MCP solo acepta tokens de API: envía «Authorization: Bearer <token>» (créalo en «Tokens de API»). La sesión de la web no sirve aquí.',
  methodNotAllowed: 'El servidor MCP de Corto no guarda sesiones: solo acepta POST en /api/mcp.',
  jsonRpcInvalid: 'El cuerpo debe ser un mensaje JSON-RPC 2.0 (el campo «jsonrpc» vale «2.0»).',
  requestInvalid: 'La petición no es un mensaje MCP válido (JSON-RPC 2.0) o pide una versión del protocolo que este servidor no habla.',
  unknownTool: (name: string) => `No existe la herramienta «${name}». Las herramientas son: create_link, find_links, update_link y link_stats.`,
  argumentsInvalid: 'Los argumentos no son válidos',
  linkIdInvalid: 'El id del link debe ser un número entero positivo (el campo «id» que devuelve find_links).',
  readOnlyToken: 'Este token es de solo lectura: puede buscar links y leer sus estadísticas, no crearlos ni cambiarlos. Usa un token de lectura y escritura.',
  internal: 'No se pudo completar la operación por un error del servidor. Inténtalo de nuevo en un momento.',
} as const;
