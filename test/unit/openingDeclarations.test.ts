import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startBeforeBundle, warmList } from '../../server/src/cli/openingFiles';
import { declarations } from '../../server/src/symbols';
import { openingDeclarations } from '../../server/src/symbols/openingDeclarations';
import { tempDir } from '../support/tempDirs';

const ORDERS = ['export class Orders {', '  cancel(id: string) {', '    return id;', '  }', '}', '', 'export function total() {', '  return 0;', '}', ''].join('\n');
const CART = ['class Cart:', '    def add(self, item):', '        pass', ''].join('\n');

describe('the files an editor shows as the memory server starts', () => {
  it('reads `--warm` as the absolute paths of the files shown, leaving out anything else', () => {
    const file = path.resolve('src', 'orders.ts');
    assert.deepEqual(warmList(`${file},db.ts,,Rakefile`), [file]);
    assert.deepEqual(warmList(undefined), []);
  });

  it('are parsed in a process of their own, each handed out once for exactly the text it was parsed from', async () => {
    const folder = tempDir('engram-opening-');
    const orders = path.join(folder, 'Orders.ts');
    const cart = path.join(folder, 'cart.py');
    writeFileSync(orders, ORDERS);
    writeFileSync(cart, CART);
    // Other commands, and a server shown no file, start no process: nothing is parsed for them.
    startBeforeBundle('recall', ['--warm', orders]);
    startBeforeBundle('lsp', ['--stdio', '--warm=']);
    startBeforeBundle('lsp', ['--stdio']);
    assert.equal(await openingDeclarations(orders, 'typescript', ORDERS), null);
    // As the `engram` entry does before it loads the server's bundle (cli/launch.ts).
    startBeforeBundle('lsp', ['--stdio', '--warm', [orders, path.join(folder, 'gone.ts'), cart, path.join(folder, 'notes.txt')].join(',')]);

    // Asked before the process is done: it waits for it. A name differing in case is the same file on a case-insensitive disk.
    const found = await openingDeclarations(path.join(folder, 'orders.ts'), 'typescript', ORDERS);
    assert.deepEqual(found, (await declarations(ORDERS, 'typescript')).declarations);
    assert.deepEqual(found?.map((d) => d.name), ['Orders', 'Orders.cancel', 'total']);
    // Once: the next version of the document is the server's to parse.
    assert.equal(await openingDeclarations(orders, 'typescript', ORDERS), null);
    // Another text (edited since it was read) or another language: not what the process parsed.
    assert.equal(await openingDeclarations(cart, 'python', `${CART}# edited\n`), null);
    assert.equal(await openingDeclarations(cart, 'ruby', CART), null);
    assert.deepEqual((await openingDeclarations(cart, 'python', CART))?.map((d) => d.name), ['Cart', 'Cart.add']);
    // A file it was not given, or one it could not read: none.
    assert.equal(await openingDeclarations(path.join(folder, 'gone.ts'), 'typescript', ''), null);
    assert.equal(await openingDeclarations(path.join(folder, 'other.ts'), 'typescript', ORDERS), null);
  });
});
