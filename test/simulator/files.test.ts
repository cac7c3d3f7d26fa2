import { describe, expect, it } from 'vitest';
import { ENDPOINTS, FILE_FIELDS } from '../../src/service/wire';
import { useSimulator } from './helpers';

const h = useSimulator();

const P = FILE_FIELDS.put;
const G = FILE_FIELDS.get;

/** Every byte value, twice, with bytes that are not valid UTF-8. */
const BYTES = new Uint8Array([...Array.from({ length: 256 }, (_, i) => i), 0xff, 0xfe, 0x00, 0xc3, 0x28, ...Array.from({ length: 256 }, (_, i) => 255 - i)]);

function putForm(fields: Partial<Record<keyof typeof P, string | Blob>>, filename = 'sample.bin'): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    const name = P[key as keyof typeof P];
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename);
  }
  return form;
}

async function put(form: FormData): Promise<Response> {
  return fetch(`${h.sim.url}${ENDPOINTS.putFile}`, { method: 'POST', body: form });
}

async function get(id: string, auth: string): Promise<Response> {
  const form = new FormData();
  form.append(G.id, id);
  form.append(G.auth, auth);
  return fetch(`${h.sim.url}${ENDPOINTS.getFile}`, { method: 'POST', body: form });
}

const fullPut = () => ({
  auth: h.sim.fileToken,
  bucketId: 'bucket-7',
  name: 'sample.bin',
  file: new Blob([BYTES], { type: 'application/x-sample' }),
});

describe('/putfile/ and /getfile/', () => {
  it('round-trips binary bytes exactly', async () => {
    const response = await put(putForm({ ...fullPut(), path: 'evidence/2030', contentType: 'application/vnd.test' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const reply = (await response.json()) as Record<string, string>;
    expect(Object.keys(reply)).toEqual([FILE_FIELDS.putResultKey]);
    const id = reply[FILE_FIELDS.putResultKey] ?? '';
    expect(h.sim.state.files.get(id)).toMatchObject({
      bucketId: 'bucket-7',
      name: 'sample.bin',
      path: 'evidence/2030',
      contentType: 'application/vnd.test',
    });

    const download = await get(id, h.sim.fileToken);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''sample.bin");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(BYTES);
  });

  it('takes the content type of the file part when content_type is absent, and no path', async () => {
    const reply = (await (await put(putForm(fullPut()))).json()) as Record<string, string>;
    expect(h.sim.state.files.get(reply[FILE_FIELDS.putResultKey] ?? '')).toMatchObject({ path: null, contentType: 'application/x-sample' });
  });

  it('logs multipart bodies as fields, files as name and size', async () => {
    await put(putForm(fullPut()));
    expect(h.sim.requests[0]?.body).toEqual({
      [P.auth]: h.sim.fileToken,
      [P.bucketId]: 'bucket-7',
      [P.name]: 'sample.bin',
      [P.file]: { filename: 'sample.bin', size: BYTES.length },
    });
  });

  it('answers 403 for a wrong file token, on both endpoints', async () => {
    const upload = await put(putForm({ ...fullPut(), auth: h.sim.adminToken }));
    expect(upload.status).toBe(403);
    expect(await upload.text()).toBe('invalid file token');
    expect(h.sim.state.files.size).toBe(0);

    const reply = (await (await put(putForm(fullPut()))).json()) as Record<string, string>;
    const download = await get(reply[FILE_FIELDS.putResultKey] ?? '', 'wrong-token');
    expect(download.status).toBe(403);
    expect(await download.text()).toBe('invalid file token');
  });

  it('answers 404 for an unknown file id', async () => {
    const response = await get('no-such-file', h.sim.fileToken);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('file not found');
  });

  it.each([
    [{ bucketId: undefined }, 'missing field: bucket_id'],
    [{ name: undefined, file: undefined }, 'missing fields: name, file'],
    [{ file: 'not a file part' }, 'missing field: file'],
    [{ auth: undefined }, 'missing field: auth'],
  ])('answers 400 for %j', async (change, text) => {
    const fields: Record<string, string | Blob | undefined> = { ...fullPut(), ...change };
    const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<keyof typeof P, string | Blob>;
    const response = await put(putForm(defined));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(text);
  });

  it('answers 400 for a getfile without id, 415 for a body that is not multipart', async () => {
    const form = new FormData();
    form.append(G.auth, h.sim.fileToken);
    const missing = await fetch(`${h.sim.url}${ENDPOINTS.getFile}`, { method: 'POST', body: form });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toBe('missing field: id');

    const urlencoded = await fetch(`${h.sim.url}${ENDPOINTS.getFile}`, {
      method: 'POST',
      body: new URLSearchParams({ id: 'x', auth: h.sim.fileToken }),
    });
    expect(urlencoded.status).toBe(415);
    expect(await urlencoded.text()).toBe('Content-Type must be multipart/form-data');
  });

  it('keeps files of several buckets apart', async () => {
    const a = (await (await put(putForm({ ...fullPut(), bucketId: 'a', file: new Blob(['first']) }))).json()) as Record<string, string>;
    const b = (await (await put(putForm({ ...fullPut(), bucketId: 'b', file: new Blob(['second']) }))).json()) as Record<string, string>;
    expect(a[FILE_FIELDS.putResultKey]).not.toBe(b[FILE_FIELDS.putResultKey]);
    expect(await (await get(a[FILE_FIELDS.putResultKey] ?? '', h.sim.fileToken)).text()).toBe('first');
    expect(await (await get(b[FILE_FIELDS.putResultKey] ?? '', h.sim.fileToken)).text()).toBe('second');
    expect([...h.sim.state.files.values()].map((f) => f.bucketId)).toEqual(['a', 'b']);
  });
});
