import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/**
 * The page of a memory view: a Content-Security-Policy that allows only this extension's bundled
 * assets and one script carrying a nonce made for this load (no remote content, no inline code),
 * asset URLs from `asWebviewUri`, and the root element the script renders into.
 */
/** `stylesheet`: whether the page has a stylesheet of its own beside the shared one (default: yes). */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: { readonly entry: string; readonly title: string; readonly rootId: string; readonly stylesheet?: boolean }): string {
  const assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const nonce = randomBytes(16).toString('base64');
  const asset = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(assets, file)).toString();
  // Styles: the toolkit's web components adopt constructed style sheets at run time, hence 'unsafe-inline' for style only.
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${asset('webview.css')}">
  ${page.stylesheet === false ? '' : `<link rel="stylesheet" href="${asset(`${page.entry}.css`)}">`}
  <title>${page.title}</title>
</head>
<body>
  <div id="${page.rootId}" class="view-root"></div>
  <script nonce="${nonce}" src="${asset(`${page.entry}.js`)}"></script>
</body>
</html>`;
}

/** Webview options for the memory views: scripts on, and nothing readable but the bundled assets. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')] };
}
