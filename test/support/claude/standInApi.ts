// A scripted stand-in of the Anthropic Messages API, enough for the real Claude Code CLI to run a
// session offline: it answers `POST /v1/messages` by the first rule of a script that matches the
// request, streams the answer as the real API does (SSE), and records every request it gets.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One tool call the scripted model makes; `input` must satisfy the tool's schema. */
export interface ScriptedToolUse {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** What the scripted model answers: text, tool calls (after the text), or both. */
export interface ScriptedReply {
  readonly text?: string;
  readonly toolUses?: readonly ScriptedToolUse[];
  /** Reported in message_start; raise it to push the CLI towards automatic compaction. Default 100. */
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

/**
 * A rule answers a request when every condition it sets holds and it is not used up. All
 * conditions are plain data so a script can be written to a file; `when` is for the rare case
 * that needs code.
 */
export interface ScriptRule {
  /** Substring of the last `user` message: the prompt (with hook context and reminders) or tool results. */
  readonly lastUserIncludes?: string;
  /** Substring of any message of any role (prompt, system messages, tool calls and results). */
  readonly anyIncludes?: string;
  /** Substring of the system prompt. */
  readonly systemIncludes?: string;
  /** The last `user` message carries the result of a call to this tool (e.g. "Write"). */
  readonly afterToolResultOf?: string;
  /** The request offers this tool: true of the agent loop's requests, not of side requests. */
  readonly offersTool?: string;
  readonly when?: (request: MessagesRequest) => boolean;
  /** How many requests this rule may answer; default 1. 0 means no limit. */
  readonly times?: number;
  readonly reply: ScriptedReply;
}

export interface StandInScript {
  readonly rules: readonly ScriptRule[];
  /** The answer to a request no rule matches. Default: a short text. */
  readonly fallback?: ScriptedReply;
}

export interface ContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly id?: string;
  readonly name?: string;
  readonly input?: unknown;
  readonly tool_use_id?: string;
  readonly content?: string | readonly ContentBlock[];
  readonly [key: string]: unknown;
}

/** Claude Code 2.1.330 also sends `role: "system"` messages (environment, hook context). */
export interface Message {
  readonly role: 'user' | 'assistant' | 'system';
  readonly content: string | readonly ContentBlock[];
}

export interface MessagesRequest {
  readonly model: string;
  readonly messages: readonly Message[];
  readonly system?: string | readonly ContentBlock[];
  readonly tools?: readonly { readonly name: string; readonly [key: string]: unknown }[];
  readonly stream?: boolean;
  readonly [key: string]: unknown;
}

export interface RecordedRequest {
  readonly method: string;
  /** Path and query, e.g. "/v1/messages?beta=true". */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (undefined for an empty body). */
  readonly body: unknown;
  /** Index of the rule that answered a messages request; -1 for the fallback; undefined otherwise. */
  readonly rule?: number;
}

export interface StandInApi {
  /** http://127.0.0.1:<port>, or undefined when listening on a Unix socket. */
  readonly url: string | undefined;
  readonly socketPath: string | undefined;
  /** Every request so far, in the order they arrived. */
  readonly requests: readonly RecordedRequest[];
  /** The bodies of the `POST /v1/messages` requests so far. */
  messagesRequests(): MessagesRequest[];
  /** Indices of the rules that have not answered any request — to assert that a script ran in full. */
  unusedRules(): number[];
  close(): Promise<void>;
}

/** The text a message carries: text blocks, tool results, and tool calls as JSON. */
export function messageText(message: Message): string {
  return contentText(message.content);
}

function contentText(content: string | readonly ContentBlock[] | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((block) => {
      if (block.type === 'text') return block.text ?? '';
      if (block.type === 'tool_result') return contentText(block.content);
      if (block.type === 'tool_use') return `${block.name ?? ''} ${JSON.stringify(block.input ?? {})}`;
      return '';
    })
    .join('\n');
}

export function lastUserMessage(request: MessagesRequest): Message | undefined {
  return [...request.messages].reverse().find((m) => m.role === 'user');
}

/** Names of the tools whose results the last `user` message carries. */
export function toolResultsInLastUserMessage(request: MessagesRequest): string[] {
  const last = lastUserMessage(request);
  if (!last || typeof last.content === 'string') return [];
  const names = new Map<string, string>();
  for (const message of request.messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_use' && block.id && block.name) names.set(block.id, block.name);
  }
  return last.content.filter((b) => b.type === 'tool_result' && b.tool_use_id).map((b) => names.get(b.tool_use_id!) ?? '?');
}

function matches(rule: ScriptRule, request: MessagesRequest): boolean {
  const last = lastUserMessage(request);
  if (rule.lastUserIncludes !== undefined && !(last && messageText(last).includes(rule.lastUserIncludes))) return false;
  if (rule.anyIncludes !== undefined && !request.messages.some((m) => messageText(m).includes(rule.anyIncludes!))) return false;
  if (rule.systemIncludes !== undefined && !contentText(request.system).includes(rule.systemIncludes)) return false;
  if (rule.afterToolResultOf !== undefined && !toolResultsInLastUserMessage(request).includes(rule.afterToolResultOf)) return false;
  if (rule.offersTool !== undefined && !(request.tools ?? []).some((t) => t.name === rule.offersTool)) return false;
  return rule.when ? rule.when(request) : true;
}

const DEFAULT_FALLBACK: ScriptedReply = { text: 'OK.' };

/**
 * Part of the last user message of a compaction request (`/compact` or automatic); answer it with
 * `<analysis>…</analysis><summary>…</summary>` text. Compaction requests offer the usual tools.
 */
export const COMPACTION_REQUEST = 'Your task is to create a detailed summary of the conversation so far';

interface SseEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** The stream the real API sends for one reply; tool input arrives in several input_json_delta chunks. */
function replyEvents(reply: ScriptedReply, model: string): { events: SseEvent[]; message: Record<string, unknown> } {
  const id = `msg_standin_${randomBytes(8).toString('hex')}`;
  const inputTokens = reply.inputTokens ?? 100;
  const outputTokens = reply.outputTokens ?? 10;
  const blocks: Record<string, unknown>[] = [];
  const events: SseEvent[] = [];
  events.push({
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } },
  });
  if (reply.text !== undefined) {
    const index = blocks.length;
    blocks.push({ type: 'text', text: reply.text });
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const chunk of halves(reply.text)) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: chunk } });
    events.push({ type: 'content_block_stop', index });
  }
  for (const toolUse of reply.toolUses ?? []) {
    const index = blocks.length;
    const toolUseId = `toolu_standin_${randomBytes(10).toString('hex')}`;
    blocks.push({ type: 'tool_use', id: toolUseId, name: toolUse.name, input: toolUse.input });
    events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: toolUseId, name: toolUse.name, input: {} } });
    for (const chunk of halves(JSON.stringify(toolUse.input))) events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: chunk } });
    events.push({ type: 'content_block_stop', index });
  }
  const stopReason = reply.toolUses?.length ? 'tool_use' : 'end_turn';
  events.push({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { input_tokens: inputTokens, output_tokens: outputTokens } });
  events.push({ type: 'message_stop' });
  const message = { id, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: outputTokens } };
  return { events, message };
}

function halves(text: string): string[] {
  if (text.length < 2) return [text];
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_standin_${randomBytes(6).toString('hex')}` });
  response.end(JSON.stringify(body));
}

export interface StandInOptions {
  /** Listen on this Unix socket instead of 127.0.0.1 (runClaude bridges it into a network namespace). */
  readonly socketPath?: string;
}

/** Starts the stand-in on 127.0.0.1 on a free port (or on a Unix socket). */
export async function startStandInApi(script: StandInScript, options: StandInOptions = {}): Promise<StandInApi> {
  const requests: RecordedRequest[] = [];
  const used = script.rules.map(() => 0);
  const fallback = script.fallback ?? DEFAULT_FALLBACK;

  const answerMessages = (body: MessagesRequest, response: http.ServerResponse): number => {
    const index = script.rules.findIndex((rule, i) => (rule.times === 0 || used[i]! < (rule.times ?? 1)) && matches(rule, body));
    if (index >= 0) used[index]! += 1;
    const reply = index >= 0 ? script.rules[index]!.reply : fallback;
    const { events, message } = replyEvents(reply, body.model);
    if (body.stream === false) {
      sendJson(response, 200, message);
    } else {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_standin_${randomBytes(6).toString('hex')}` });
      for (const event of events) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      response.end();
    }
    return index;
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch (error) {
        requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: raw });
        sendJson(response, 400, { type: 'error', error: { type: 'invalid_request_error', message: `stand-in: body is not JSON: ${(error as Error).message}` } });
        return;
      }
      const url = request.url ?? '';
      const path = url.split('?')[0];
      const record = { method: request.method ?? '', url, headers: request.headers, body };
      if (request.method === 'POST' && path === '/v1/messages') {
        requests.push({ ...record, rule: answerMessages(body as MessagesRequest, response) });
        return;
      }
      requests.push(record);
      if (request.method === 'POST' && path === '/v1/messages/count_tokens') {
        // Roughly what the real tokenizer says for English text and JSON.
        sendJson(response, 200, { input_tokens: Math.ceil(raw.length / 4) });
      } else if (path === '/api/hello') {
        // The connectivity check sent when CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC is not set.
        sendJson(response, 200, { message: 'hello' });
      } else if (request.method === 'GET' && path === '/v1/models') {
        sendJson(response, 200, { data: [], has_more: false, first_id: null, last_id: null });
      } else {
        sendJson(response, 404, { type: 'error', error: { type: 'not_found_error', message: `stand-in: no ${request.method} ${path}` } });
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (options.socketPath) server.listen(options.socketPath, resolve);
    else server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const url = typeof address === 'object' && address ? `http://127.0.0.1:${(address as AddressInfo).port}` : undefined;

  return {
    url,
    socketPath: options.socketPath,
    requests,
    messagesRequests: () => requests.filter((r) => r.method === 'POST' && r.url.split('?')[0] === '/v1/messages').map((r) => r.body as MessagesRequest),
    unusedRules: () => used.flatMap((count, i) => (count === 0 ? [i] : [])),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
