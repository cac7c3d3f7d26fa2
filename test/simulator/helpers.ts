/**
 * Test helpers: one simulator per test file, and raw HTTP against it (no project client
 * involved).
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { COMMANDS, CONTEXT_FIELDS, ENDPOINTS, SETAUTH_ACK } from '../../src/service/wire';
import { type Simulator, type SimulatorOptions, startSimulator } from '.';

export interface SimulatorHandle {
  /** The running simulator; throws outside the file's tests. */
  readonly sim: Simulator;
}

/**
 * Registers a test file's hooks: a simulator started before its first test, reset
 * before each test, closed after the last. Call it at the top level of the file.
 */
export function useSimulator(options: SimulatorOptions = {}): SimulatorHandle {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator(options);
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(() => {
    sim?.reset();
  });
  return {
    get sim() {
      if (!sim) throw new Error('the simulator is not running');
      return sim;
    },
  };
}

export type Slot = Record<string, unknown>;

export interface ApiReply {
  status: number;
  contentType: string | null;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export async function postRaw(sim: Simulator, body: string, contentType: string | null = 'application/json'): Promise<ApiReply> {
  const response = await fetch(`${sim.url}${ENDPOINTS.api}`, {
    method: 'POST',
    headers: contentType === null ? {} : { 'content-type': contentType },
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type'), text, json };
}

/** Posts `[setauth, ...commands]` and answers the reply. */
export function api(sim: Simulator, commands: readonly unknown[], token: unknown = sim.adminToken): Promise<ApiReply> {
  return postRaw(sim, JSON.stringify([{ command: COMMANDS.setauth, data: token }, ...commands]));
}

/** Posts `[setauth, command]`, expects HTTP 200 and two slots, answers slot 1. */
export async function call(sim: Simulator, command: Record<string, unknown>, token: unknown = sim.adminToken): Promise<Slot> {
  const reply = await api(sim, [command], token);
  expect(reply.status).toBe(200);
  const slots = reply.json as Slot[];
  expect(slots).toHaveLength(2);
  expect(slots[0]).toEqual({ result: SETAUTH_ACK });
  return slots[1] as Slot;
}

/** The result of one command, failing the test on an error slot. */
export async function result<T = Record<string, unknown>>(sim: Simulator, command: Record<string, unknown>, token: unknown = sim.adminToken): Promise<T> {
  const slot = await call(sim, command, token);
  expect(slot).not.toHaveProperty('error');
  return slot.result as T;
}

/** Creates a context; answers its id. */
export async function createContext(sim: Simulator, contextData: Record<string, unknown>, commandLevel: Record<string, unknown> = {}): Promise<string> {
  const created = await result(sim, { command: COMMANDS.createContext, context_data: contextData, ...commandLevel });
  const id = created[CONTEXT_FIELDS.id];
  expect(typeof id).toBe('string');
  return id as string;
}

export interface Page {
  status: number;
  headers: Headers;
  html: string;
}

export async function launch(sim: Simulator, id: string): Promise<Page> {
  const response = await fetch(sim.launchUrl(id), { redirect: 'manual' });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The inner HTML of every element carrying `data-testid="<id>"` (leaf elements only). */
export function byTestId(html: string, id: string): string[] {
  const pattern = new RegExp(`<(\\w+)[^>]*\\sdata-testid="${id}"[^>]*>([\\s\\S]*?)</\\1>`, 'g');
  return [...html.matchAll(pattern)].map((m) => m[2] ?? '');
}

/** The one element with this test id. */
export function testId(html: string, id: string): string {
  const found = byTestId(html, id);
  expect(found, `data-testid="${id}"`).toHaveLength(1);
  return found[0] ?? '';
}

/** Expects the one element of each test id to hold the given inner HTML. */
export function expectTestIds(html: string, expected: Readonly<Record<string, string>>): void {
  const found = Object.fromEntries(Object.keys(expected).map((id) => [id, testId(html, id)]));
  expect(found).toEqual(expected);
}

/** The opening tag of the one element with this test id. */
export function openingTag(html: string, id: string): string {
  const found = [...html.matchAll(new RegExp(`<\\w+[^>]*\\sdata-testid="${id}"[^>]*>`, 'g'))].map((m) => m[0]);
  expect(found).toHaveLength(1);
  return found[0] ?? '';
}

/** Polls until the check holds (no time limit of its own: the test timeout applies). */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}
