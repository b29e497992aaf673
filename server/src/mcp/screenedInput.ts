import type { JSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';
import { StringDecoder } from 'node:string_decoder';
import { Transform, type Readable } from 'node:stream';
import { screenRequest } from './requestScreen';

/** Past this, a line is passed on unread: the SDK closes the connection at its own limit (10 MB). */
const MAX_SCREENED_LINE = 10 * 1024 * 1024;

function screenLine(line: string): JSONRPCErrorResponse | null {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    // Not JSON: the SDK says so in its log; there is no id to answer.
    return null;
  }
  return screenRequest(message);
}

/**
 * The client's messages as the MCP SDK's stdio transport reads them, less the requests
 * `screenRequest` answers itself through `reply`. Every other byte passes on unchanged.
 */
export function screenedInput(input: Readable, reply: (error: JSONRPCErrorResponse) => void): Readable {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const screened = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending += decoder.write(chunk);
      let passed = '';
      let start = 0;
      for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
        const line = pending.slice(start, end + 1);
        start = end + 1;
        const error = screenLine(line);
        if (error) reply(error);
        else passed += line;
      }
      pending = pending.slice(start);
      if (pending.length > MAX_SCREENED_LINE) {
        passed += pending;
        pending = '';
      }
      done(null, passed || undefined);
    },
    flush(done) {
      done(null, pending + decoder.end() || undefined);
    },
  });
  return input.pipe(screened);
}
