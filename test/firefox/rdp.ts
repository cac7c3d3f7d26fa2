/**
 * A minimal client for Firefox's Remote Debugging Protocol (the protocol web-ext itself
 * uses to install a temporary add-on): JSON packets framed as `<byte length>:<json>`
 * over TCP on 127.0.0.1. Replies carry no `type`; events (evaluation results, targets,
 * console and error resources) do.
 */
import { createConnection, type Socket } from 'node:net';

export type Packet = Record<string, unknown> & { readonly from?: string; readonly type?: string; readonly error?: string };

interface Waiter {
  resolve(packet: Packet): void;
  reject(error: Error): void;
}

export class RdpClient {
  private socket: Socket | undefined;
  private buffer = Buffer.alloc(0);
  /** Pending requests per actor, answered in order. */
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly listeners = new Set<(packet: Packet) => void>();
  /** Every event received, oldest first. */
  readonly events: Packet[] = [];

  /** Connects and waits for the root actor's greeting. */
  connect(port: number): Promise<Packet> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      this.socket = socket;
      socket.once('error', reject);
      socket.on('data', (chunk) => {
        this.onData(chunk);
      });
      socket.on('close', () => {
        this.failAll(new Error('the debugger connection closed'));
      });
      this.waiters.set('root', [
        {
          resolve: (packet) => {
            socket.off('error', reject);
            socket.on('error', () => undefined);
            resolve(packet);
          },
          reject,
        },
      ]);
    });
  }

  /** Sends a request to an actor and waits for its reply (an `error` reply rejects). */
  request(to: string, type: string, extra: Record<string, unknown> = {}): Promise<Packet> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new Error('not connected'));
    return new Promise((resolve, reject) => {
      const queue = this.waiters.get(to) ?? [];
      queue.push({ resolve, reject });
      this.waiters.set(to, queue);
      const json = JSON.stringify({ to, type, ...extra });
      socket.write(`${Buffer.byteLength(json)}:${json}`);
    });
  }

  /** Calls `listener` with every event from now on; returns a function that stops it. */
  onEvent(listener: (packet: Packet) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private onData(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const colon = this.buffer.indexOf(':');
      if (colon === -1) return;
      const length = Number(this.buffer.subarray(0, colon).toString('ascii'));
      if (!Number.isInteger(length)) {
        this.failAll(new Error('malformed debugger packet'));
        this.close();
        return;
      }
      if (this.buffer.length < colon + 1 + length) return;
      const packet = JSON.parse(this.buffer.subarray(colon + 1, colon + 1 + length).toString('utf8')) as Packet;
      this.buffer = this.buffer.subarray(colon + 1 + length);
      this.dispatch(packet);
    }
  }

  private dispatch(packet: Packet): void {
    const queue = packet.from === undefined ? undefined : this.waiters.get(packet.from);
    if (packet.type === undefined && queue && queue.length > 0) {
      const waiter = queue.shift();
      if (packet.error !== undefined) waiter?.reject(new Error(`${packet.error}: ${String(packet['message'])}`));
      else waiter?.resolve(packet);
      return;
    }
    this.events.push(packet);
    for (const listener of this.listeners) listener(packet);
  }

  private failAll(error: Error): void {
    for (const queue of this.waiters.values()) for (const waiter of queue.splice(0)) waiter.reject(error);
  }
}
