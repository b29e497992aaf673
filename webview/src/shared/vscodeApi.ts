/** The typed channel from a webview to the extension (client/), which owns all server traffic. */
interface VsCodeApi<Request> {
  postMessage(message: Request): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi<Request>(): VsCodeApi<Request>;

export function connectToExtension<Request>(): VsCodeApi<Request> {
  return acquireVsCodeApi<Request>();
}
