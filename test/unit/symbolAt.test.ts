import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { declarations, innermostAt, languageForPath, symbolAt } from '../../server/src/symbols';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'symbols');

describe('the symbol at a line of a file read from disk (symbolAt)', () => {
  const fixtures = readdirSync(FIXTURES).map((file) => {
    const name = file.replace(/\.fixture$/, '');
    return { name, language: languageForPath(name)!, text: readFileSync(path.join(FIXTURES, file), 'utf8') };
  });

  for (const fixture of fixtures) {
    it(`names at every line of ${fixture.name} what a whole-file parse names`, async () => {
      const whole = (await declarations(fixture.text, fixture.language)).declarations;
      const lines = fixture.text.split('\n').length;
      let named = 0;
      for (let line = 0; line < lines; line++) {
        const expected = innermostAt(whole, line);
        if (expected) named++;
        // The fixtures are small: their regions are most of the text, so the share limit is lifted.
        assert.equal(await symbolAt(fixture.name, fixture.text, line, { maxShare: 1 }), expected, `${fixture.name}:${line + 1}`);
        assert.equal(await symbolAt(fixture.name, fixture.text, line), expected, `${fixture.name}:${line + 1}, whole`);
      }
      assert.ok(named > lines / 3, `${fixture.name}: most lines are in a declaration`);
    });
  }

  it('names a line of a long file from its region, and a line of a file that does not parse from the whole', async () => {
    const { text } = fixtures.find((f) => f.name === 'orders.ts')!;
    const long = Array.from({ length: 6 }, (_, i) => text.replaceAll('Order', `Order${i}`)).join('\n');
    const whole = (await declarations(long, 'typescript')).declarations;
    for (let line = 0; line < long.split('\n').length; line++) assert.equal(await symbolAt('orders.ts', long, line), innermostAt(whole, line), `line ${line + 1}`);
    const broken = `${long}\nexport function unfinished( {\n`;
    const brokenWhole = (await declarations(broken, 'typescript')).declarations;
    for (const line of [3, 40, 120]) assert.equal(await symbolAt('orders.ts', broken, line), innermostAt(brokenWhole, line));
  });
});
