// Requests the MCP SDK alone would drop or call internal errors, sent by the SDK's own client to
// the real `engram mcp`: each gets a prompt JSON-RPC error that says what is wrong, and the server
// goes on serving.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CallToolResultSchema, ErrorCode, ListToolsResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { assertBuilt } from '../support/engramProcess';
import { resultText, startMcp, type McpSession } from '../support/mcpClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

/** Long enough for any answer; a request that gets none fails with the SDK's RequestTimeout instead of hanging the test. */
const REPLY_WITHIN_MS = 5000;

describe('malformed MCP requests', () => {
  let session: McpSession;
  before(async () => {
    assertBuilt();
    const root = tempDir('engram-mcp-project-');
    mkdirSync(path.join(root, '.git'));
    session = await startMcp({ env: isolatedEnv(), project: root });
  });
  after(async () => session?.close());

  /** Sends a request as given (the client does not check what it sends) and returns the error it got. */
  async function errorOf(method: string, params: unknown, schema: typeof CallToolResultSchema | typeof ListToolsResultSchema = CallToolResultSchema): Promise<McpError> {
    const error = await session.client.request({ method, params } as never, schema, { timeout: REPLY_WITHIN_MS }).then(
      () => assert.fail('answered as if it were well formed'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof McpError, String(error));
    return error;
  }

  it('answers tools/call with params null with -32602, not silence', async () => {
    const error = await errorOf('tools/call', null);
    assert.equal(error.code, ErrorCode.InvalidParams);
    assert.match(error.message, /tools\/call takes its params as an object \(or none at all\), not null/);
  });

  it('answers params null on any method the same way', async () => {
    const error = await errorOf('tools/list', null, ListToolsResultSchema);
    assert.equal(error.code, ErrorCode.InvalidParams);
  });

  it('answers tools/call with arguments that are a string with -32602, not -32603', async () => {
    const error = await errorOf('tools/call', { name: 'stats', arguments: '{"kind": "note"}' });
    assert.equal(error.code, ErrorCode.InvalidParams);
    assert.match(error.message, /Invalid params for tools\/call: params\.arguments: .*expected record, received string/);
  });

  it('answers tools/call without a tool name with -32602', async () => {
    const error = await errorOf('tools/call', { arguments: {} });
    assert.equal(error.code, ErrorCode.InvalidParams);
    assert.match(error.message, /params\.name/);
  });

  it('says a timeline `since` reaching back before any date is a bad argument, not an internal error', async () => {
    const result = await session.call('timeline', { since: '99999999999w' });
    assert.equal(result.isError, true);
    assert.equal(resultText(result), 'since "99999999999w" reaches back before any date; leave it out to get everything');
    assert.doesNotMatch(session.stderr(), /timeline failed|RangeError/);
  });

  it('goes on serving after all of them', async () => {
    const stats = await session.call('stats');
    assert.equal(stats.isError, undefined, resultText(stats));
    assert.deepEqual(session.transportErrors, []);
  });
});
