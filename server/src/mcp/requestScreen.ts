import { ClientRequestSchema, ErrorCode, JSONRPCMessageSchema, type JSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';

/** The schema of each request a client may send, by method: the SDK's own. */
const REQUEST_SCHEMAS = new Map<string, (typeof ClientRequestSchema.options)[number]>(ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]));

type RequestId = string | number;

function errorReply(id: RequestId, code: ErrorCode, message: string): JSONRPCErrorResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function issuesOf(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || 'params'}: ${issue.message}`).join('; ');
}

/**
 * The reply a request gets here, before the MCP SDK sees it, or null to pass it on. The SDK
 * (1.32) drops a message it cannot parse, so a request whose params are null or a string never
 * got a reply, and it answers params its handler's schema refuses with -32603 (internal error), as
 * for `arguments` that are a string. Both are the caller's mistake: -32602 (invalid params), or
 * -32600 (invalid request) for a request malformed otherwise, each saying what is wrong.
 * Responses, notifications and lines that are not JSON pass on as they are (no one awaits a reply).
 */
export function screenRequest(message: unknown): JSONRPCErrorResponse | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof method !== 'string') return null;
  if ('params' in message && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    return errorReply(id, ErrorCode.InvalidParams, `Invalid params: ${method} takes its params as an object (or none at all), not ${describe(params)}`);
  }
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (!parsed.success) return errorReply(id, ErrorCode.InvalidRequest, 'Invalid request: a JSON-RPC 2.0 request has jsonrpc "2.0", an id, a method and, if any, params, and nothing else');
  const schema = REQUEST_SCHEMAS.get(method);
  if (!schema) return null;
  const request = schema.safeParse({ method, ...(params === undefined ? {} : { params }) });
  if (!request.success) return errorReply(id, ErrorCode.InvalidParams, `Invalid params for ${method}: ${issuesOf(request.error)}`);
  return null;
}
