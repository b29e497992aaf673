import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_CAPACITY } from '../../server/src/capacity/settings';
import { parseInitializationOptions } from '../../server/src/lsp/initializationOptions';
import { DEFAULT_WEIGHTS } from '../../server/src/recall/weights';
import { readEngramConfig } from '../../server/src/config/engramConfig';
import { REPO_ROOT } from '../support/engramProcess';
import { isolatedEnv } from '../support/tempDirs';

/**
 * The extension reads `engram.*` without defaults of its own (client/src/settings.ts), so VS Code
 * answers with package.json's. The server has defaults too — for the CLI, hooks and MCP servers,
 * which run without VS Code — and they must be the same numbers, or a setting left alone would
 * mean one thing in the editor and another in a terminal.
 */
describe('the defaults of the engram.* settings', () => {
  const properties = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default: unknown }> } } })
    .contributes.configuration.properties;
  const contributed = (key: string) => {
    assert.ok(key in properties, `package.json contributes ${key}`);
    return properties[key]!.default;
  };

  it('are the same in package.json and in the config every Engram process reads', () => {
    const { config, problem } = readEngramConfig(isolatedEnv());
    assert.equal(problem, null);
    assert.deepEqual(config.capture, { exclude: contributed('engram.exclude'), bulkThreshold: contributed('engram.capture.bulkThreshold') });
    assert.deepEqual(config.redact.patterns, contributed('engram.redact.patterns'));
    assert.deepEqual(config.recall.weights, contributed('engram.recall.weights'));
    assert.deepEqual(config.hooks, {
      sessionStartBudget: contributed('engram.hooks.sessionStartBudget'),
      promptBudget: contributed('engram.hooks.promptBudget'),
      timeoutMs: contributed('engram.hooks.timeoutMs'),
    });
    assert.deepEqual(config.team, { url: contributed('engram.team.url'), syncAll: contributed('engram.team.syncAll') });
  });

  it('are the same in package.json and in the memory server started without settings', () => {
    const options = parseInitializationOptions(undefined);
    assert.equal(options.problem, null);
    assert.equal(options.settings.coalesceWindowMs, (contributed('engram.capture.coalesceMinutes') as number) * 60_000);
    assert.equal(options.settings.bulkThreshold, contributed('engram.capture.bulkThreshold'));
    assert.deepEqual(options.settings.exclude, contributed('engram.exclude'));
    assert.deepEqual(options.recallWeights, contributed('engram.recall.weights'));
    assert.deepEqual(options.team, { url: contributed('engram.team.url'), syncAll: contributed('engram.team.syncAll') });
  });

  it('are the same in package.json and in recall and capacity', () => {
    assert.deepEqual(DEFAULT_WEIGHTS, contributed('engram.recall.weights'));
    const weights = properties['engram.recall.weights'] as unknown as { properties: Record<string, { default: number }> };
    assert.deepEqual(Object.fromEntries(Object.entries(weights.properties).map(([k, v]) => [k, v.default])), DEFAULT_WEIGHTS, 'each weight says the same default');
    assert.deepEqual(
      { high: DEFAULT_CAPACITY.watermarks.high, low: DEFAULT_CAPACITY.watermarks.low, consolidateAfterDays: DEFAULT_CAPACITY.consolidation.olderThanDays },
      { high: contributed('engram.capacity.high'), low: contributed('engram.capacity.low'), consolidateAfterDays: contributed('engram.capacity.consolidateAfterDays') },
    );
  });
});
