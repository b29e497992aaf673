import { isExtensionMessage, type ExtensionMessage, type ViewCallMethod, type ViewCalls, type WebviewMessage } from '../../../contracts/webviewMessages';
import { connectToExtension } from './vscodeApi';

/** A memory view's line to the extension: typed calls with promised replies, pushed messages, and saved state. */
export interface ViewChannel<State> {
  call<M extends ViewCallMethod>(method: M, params: ViewCalls[M]['params']): Promise<ViewCalls[M]['result']>;
  /** Messages the extension pushes (replies are routed to their calls). */
  onMessage(listener: (message: Exclude<ExtensionMessage, { type: 'reply' }>) => void): void;
  /** State kept by VS Code while the view is hidden or the window reloads. */
  loadState(): Partial<State>;
  saveState(state: State): void;
  /** Tells the extension the page is ready for its state; call once listeners are set up. */
  ready(): void;
}

export function connectView<State extends object>(): ViewChannel<State> {
  const api = connectToExtension<WebviewMessage>();
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners: ((message: Exclude<ExtensionMessage, { type: 'reply' }>) => void)[] = [];
  let nextId = 1;
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (!isExtensionMessage(event.data)) return;
    const message = event.data;
    if (message.type === 'reply') {
      const call = pending.get(message.requestId);
      pending.delete(message.requestId);
      if (message.ok) call?.resolve(message.result);
      else call?.reject(new Error(message.message));
      return;
    }
    for (const listener of listeners) listener(message);
  });
  return {
    call(method, params) {
      const requestId = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(requestId, { resolve: resolve as (value: unknown) => void, reject });
        api.postMessage({ type: 'call', requestId, method, params } as WebviewMessage);
      });
    },
    onMessage: (listener) => listeners.push(listener),
    loadState: () => {
      const state = api.getState();
      return typeof state === 'object' && state !== null ? (state as Partial<State>) : {};
    },
    saveState: (state) => api.setState(state),
    ready: () => api.postMessage({ type: 'ready' }),
  };
}

