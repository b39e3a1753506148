// The IPC bridge without Electron: a fake ipcMain, and behind it the engine
// host's own dispatch over a real SQLite engine, in process (tests/host runs
// the host in its own process).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Code } from '../../src-shared/errors';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../../src-main/auth/identity';
import { openEngine, type Engine, type RequestContext } from '../../src-main/engine';
import { dispatch } from '../../src-main/host/dispatch';
import { toReply } from '../../src-main/host/protocol';
import { readBridgeReply } from '../../src-shared/bridge';
import { syncReplica } from '../../src-main/sync/assembly/syncReplica';
import { seedDemoData } from '../../src-main/seed/seedDemoData';
import { INVOKE_CHANNEL, type BridgeReply, type BridgeResult } from '../../src-main/electron/channels';
import { registerIpcBridge, trustedSenderCheck, type InvokeEventLike, type IpcMainLike } from '../../src-main/electron/ipcBridge';

const RENDERER = 'app://outpost/index.html';

class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, (event: InvokeEventLike, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What the renderer's transport reads from ipcRenderer.invoke(channel, ...args) from a frame at `url` (IPC clones the reply). */
  async invoke(url: string | null, ...args: unknown[]): Promise<BridgeResult> {
    const handler = this.handlers.get(INVOKE_CHANNEL);
    if (!handler) throw new Error('no handler');
    return readBridgeReply(structuredClone((await handler({ senderFrame: url === null ? null : { url } }, ...args)) as BridgeReply));
  }
}

let dataDir: string;
let engine: Engine;
let ctx: RequestContext;
const ipc = new FakeIpcMain();
const internalErrors: unknown[] = [];
let unregister: () => void;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'outpost-ipc-'));
  engine = openEngine(dataDir, { replica: syncReplica() });
  seedDemoData(engine.db, { annotations: 30 });
  const { userId } = ensureMember(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
  ctx = { engine, db: engine.db, caller: loadCaller(engine.db, userId)! };
  const host = { context: () => ctx, onInternalError: (_op: string, e: unknown) => internalErrors.push(e) };
  unregister = registerIpcBridge(ipc, {
    // As the engine host answers: a JSON response as its text, bytes as bytes.
    call: async (operation, request) => toReply(await dispatch(host, operation, request)),
    isTrustedSender: trustedSenderCheck(['app://outpost/']),
  });
});

afterAll(() => {
  unregister();
  engine.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('IPC bridge', () => {
  test('a good call returns data from the engine', async () => {
    const result = await ipc.invoke(RENDERER, 'ListAnnotations', { pageSize: 5, orderBy: 'name' });
    expect(result.ok).toBe(true);
    const data = (result as { ok: true; data: { annotations: { name: string }[]; nextPageToken: string } }).data;
    expect(data.annotations).toHaveLength(5);
    expect(data.nextPageToken).not.toBe('');
    const names = data.annotations.map((a) => a.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  test('a write runs as the local user and is visible to the next call', async () => {
    const list = (await ipc.invoke(RENDERER, 'ListAnnotations', { pageSize: 50 })) as {
      ok: true;
      data: { annotations: { annotationId: string; state?: string }[] };
    };
    // A data-review annotation (phases have no review state) that is not flagged yet.
    const annotationId = list.data.annotations.find((a) => a.state && a.state !== 'ANNOTATION_STATE_FLAGGED')!.annotationId;
    const updated = await ipc.invoke(RENDERER, 'UpdateAnnotation', {
      annotation: { annotationId, state: 'ANNOTATION_STATE_FLAGGED' },
      updateMask: 'state',
    });
    expect(updated).toMatchObject({
      ok: true,
      data: { annotation: { annotationId, state: 'ANNOTATION_STATE_FLAGGED', modifiedByUserId: ctx.caller.userId } },
    });
    const logs = (await ipc.invoke(RENDERER, 'ListAnnotationLogs', { annotationId })) as {
      ok: true;
      data: { annotationLogs: { kind: string; stateUpdate?: { state: string } }[] };
    };
    expect(logs.data.annotationLogs.at(-1)).toMatchObject({
      kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE',
      stateUpdate: { state: 'ANNOTATION_LOG_STATE_FLAGGED' },
    });
  });

  test('an unknown operation is rejected', async () => {
    for (const name of ['DropAllTables', '__proto__', 'constructor', 42]) {
      const result = await ipc.invoke(RENDERER, name, {});
      expect(result).toMatchObject({ ok: false, error: { code: Code.UNIMPLEMENTED } });
      expect((result as { ok: false; error: { message: string } }).error.message).toMatch(/unknown operation/);
    }
  });

  test('a bad request gets an INVALID_ARGUMENT body naming the field', async () => {
    const result = await ipc.invoke(RENDERER, 'ListAnnotations', { pageSize: 'lots' });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: Code.INVALID_ARGUMENT,
        details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'page_size' }] }],
      },
    });
    const missing = await ipc.invoke(RENDERER, 'CreateAnnotationLog', { kind: 'ANNOTATION_LOG_KIND_COMMENT' });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: Code.INVALID_ARGUMENT, details: [{ fieldViolations: [{ field: 'annotation_id' }] }] },
    });
  });

  test('a request that is not a plain object is rejected', async () => {
    for (const request of ['filter', [1, 2], 7]) {
      const result = await ipc.invoke(RENDERER, 'ListAnnotations', request);
      expect(result).toMatchObject({ ok: false, error: { code: Code.INVALID_ARGUMENT } });
    }
  });

  test('service errors come back as their status body', async () => {
    const result = await ipc.invoke(RENDERER, 'GetAnnotation', { annotationId: '00000000-0000-4000-a000-000000000000' });
    expect(result).toMatchObject({ ok: false, error: { code: Code.NOT_FOUND } });
    const badFilter = await ipc.invoke(RENDERER, 'ListAnnotations', { filter: 'name ==' });
    expect(badFilter).toMatchObject({ ok: false, error: { code: Code.INVALID_ARGUMENT } });
  });

  test('a call from a frame that is not our renderer is rejected', async () => {
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://other/index.html', 'about:blank', '', null]) {
      const result = await ipc.invoke(url, 'ListAnnotations', {});
      expect(result).toMatchObject({ ok: false, error: { code: Code.PERMISSION_DENIED } });
    }
    expect(internalErrors).toEqual([]);
  });

  test('uploads carry bytes: the bridge stages them, and a download returns them', async () => {
    const bytes = new TextEncoder().encode('time,pressure\n0,101.3\n');
    const uploaded = await ipc.invoke(RENDERER, 'UploadArtifact', {
      file: { fileName: 'pressure.csv', mimeType: 'text/csv', bytes },
      title: 'Pressure trace',
    });
    expect(uploaded).toMatchObject({
      ok: true,
      data: { artifact: { title: 'Pressure trace', fileName: 'pressure.csv', sizeBytes: String(bytes.byteLength) } },
    });
    const artifactId = (uploaded as { ok: true; data: { artifact: { artifactId: string } } }).data.artifact.artifactId;
    const downloaded = await ipc.invoke(RENDERER, 'DownloadArtifactContent', { artifactId });
    expect(downloaded.ok).toBe(true);
    expect(new TextDecoder().decode((downloaded as { ok: true; data: Uint8Array }).data)).toBe('time,pressure\n0,101.3\n');
    expect(readdirSync(join(dataDir, 'tmp')).filter((f) => f.startsWith('upload-ipc-'))).toEqual([]);
  });

  test('an upload naming a path on disk is rejected', async () => {
    const result = await ipc.invoke(RENDERER, 'UploadArtifact', {
      file: { path: '/etc/passwd', fileName: 'passwd', mimeType: 'text/plain', encoding: '', size: 1 },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: Code.INVALID_ARGUMENT, details: [{ fieldViolations: [{ field: 'file' }] }] },
    });
  });
});

describe('trustedSenderCheck', () => {
  test('accepts only documents under the renderer URL', () => {
    const trusted = trustedSenderCheck(['app://outpost/', 'http://localhost:5173/']);
    expect(trusted('app://outpost/index.html')).toBe(true);
    expect(trusted('app://outpost/index.html#/policies')).toBe(true);
    expect(trusted('http://localhost:5173/')).toBe(true);
    expect(trusted('http://localhost:5174/')).toBe(false);
    expect(trusted('http://evil.example/app://outpost/')).toBe(false);
    expect(trusted('not a url')).toBe(false);
  });
});
