import Mocha from 'mocha';
import path from 'node:path';

/**
 * The extension-host entry point (`extensionTestsPath`): runs the mocha suite inside a real VS Code,
 * whether started by @vscode/test-electron (desktop) or by code-server's smoke-test driver.
 */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  mocha.addFile(path.join(__dirname, 'extension.test.js'));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} extension-host tests failed`)) : resolve()));
  });
}
