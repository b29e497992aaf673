import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { BackgroundJobs } from '../../server/src/lsp/backgroundJobs';

describe("the memory server's table of background jobs", () => {
  it('runs a job at once or after its first delay, then every period, never two runs of it at once', async () => {
    const logged: string[] = [];
    const jobs = new BackgroundJobs((message) => logged.push(message));
    let running = 0;
    let most = 0;
    let slowRuns = 0;
    let quickRuns = 0;
    jobs.start([
      {
        name: 'slow',
        firstMs: 0,
        everyMs: 10,
        run: async () => {
          running++;
          most = Math.max(most, running);
          slowRuns++;
          await sleep(60);
          running--;
        },
      },
      { name: 'later', firstMs: 40, everyMs: 1000, run: () => void quickRuns++ },
    ]);
    assert.equal(slowRuns, 1, 'a job with no first delay runs at once');
    assert.equal(quickRuns, 0);
    await sleep(150);
    jobs.stop();
    assert.equal(most, 1, 'a slow run is not stacked on');
    assert.ok(slowRuns >= 2 && slowRuns <= 4, `${slowRuns} runs of a 60 ms job in 150 ms`);
    assert.equal(quickRuns, 1);
    assert.deepEqual(jobs.names(), ['slow', 'later']);
    const after = slowRuns;
    await sleep(100);
    assert.ok(slowRuns <= after + 1, 'stop ends the timers (a run in progress may finish)');
    assert.deepEqual(logged, []);
  });

  it('logs a failed run by its job and runs it again at the next period', async () => {
    const logged: string[] = [];
    const jobs = new BackgroundJobs((message) => logged.push(message));
    let runs = 0;
    jobs.start([
      {
        name: 'flaky',
        firstMs: 0,
        everyMs: 20,
        run: () => {
          runs++;
          throw new Error('database is locked');
        },
      },
    ]);
    await sleep(70);
    jobs.stop();
    assert.ok(runs >= 2, `${runs} runs`);
    assert.match(logged[0]!, /^Background job "flaky" failed: database is locked$/);
  });
});
