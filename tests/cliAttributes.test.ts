// `outpost attributes` as an operator uses it (issue #20): real child
// processes on a fresh data directory, then `outpost serve` enforcing
// "only users with team == propulsion may archive annotations on assets
// tagged propulsion" with what the commands set.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const bin = join(__dirname, '..', 'bin', 'outpost.mjs');
const data = mkdtempSync(join(tmpdir(), 'outpost-cli-attrs-'));
afterAll(() => rmSync(data, { recursive: true, force: true }));

const env = { ...process.env, OUTPOST_DATA_DIR: '' };
const outpost = (...args: string[]) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8', env });
const refused = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env });

async function serve(dir: string) {
  const child = spawn(process.execPath, [bin, 'serve', '--data', dir, '--port', '0', '--no-sync'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /API: (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { child, url };
}

describe('outpost attributes', () => {
  it('sets principal attributes that a policy enforces on the next `outpost serve`', async () => {
    const owner = outpost('keys', 'create', '--data', data, '--owner').trim();
    const carol = outpost('keys', 'create', '--data', data, '--user', 'carol@outpost.local').trim();
    const dave = outpost('keys', 'create', '--data', data, '--user', 'dave@outpost.local').trim();
    expect(outpost('attributes', 'set-principal', 'carol@outpost.local', 'team', 'propulsion', '--data', data)).toBe(
      'carol@outpost.local in Field Team: team = "propulsion"\n',
    );
    outpost('attributes', 'set-principal', 'dave@outpost.local', 'team', 'avionics', '--data', data);
    outpost('attributes', 'add-role', 'dave@outpost.local', 'reviewer', '--data', data);
    const listed = JSON.parse(outpost('attributes', 'list', '--data', data));
    expect(listed.principals).toEqual([
      { user: 'carol@outpost.local', organization: 'Field Team', key: 'team', value: 'propulsion' },
      { user: 'dave@outpost.local', organization: 'Field Team', key: 'team', value: 'avionics' },
    ]);
    expect(listed.roles).toEqual([{ user: 'dave@outpost.local', organization: 'Field Team', role: 'reviewer' }]);

    const { child, url } = await serve(data);
    try {
      const call = async (token: string, method: string, path: string, body?: unknown) => {
        const res = await fetch(`${url}/api/v1${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      expect((await call(owner, 'POST', '/assets', { name: 'engine-1', tags: ['propulsion'] })).status).toBe(200);
      const made = await call(dave, 'POST', '/annotations', {
        name: 'thrust dip',
        startTime: '2026-01-01T00:00:00Z',
        endTime: '2026-01-01T00:01:00Z',
        assets: ['engine-1'],
      });
      expect(made.status).toBe(200);
      const id = made.body.annotation.annotationId;
      const policy = `forbid(principal, action in Action::"archive", resource is Annotation)
when { resource.assetTags.contains("propulsion") }
unless { principal.hasTag("team") && principal.getTag("team") == "propulsion" };`;
      expect((await call(owner, 'POST', '/policies', { name: 'Propulsion archives', configuration: { cedarPolicy: policy } })).status).toBe(
        200,
      );
      const denied = await call(dave, 'POST', `/annotations/${id}:archive`, {});
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ code: 7, message: expect.stringContaining('ArchiveAnnotation') });
      expect((await call(carol, 'POST', `/annotations/${id}:archive`, {})).status).toBe(200);
      // One process per data directory: the commands refuse while serve holds it, naming it.
      const busy = refused('attributes', 'set-principal', 'dave@outpost.local', 'team', 'propulsion', '--data', data);
      expect(busy.status).toBe(2);
      expect(busy.stderr).toMatch(/in use by outpost serve/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('names what it cannot find (exit 2) and changes nothing', () => {
    const user = refused('attributes', 'set-principal', 'nobody@outpost.local', 'team', 'x', '--data', data);
    expect(user.status).toBe(2);
    expect(user.stderr).toBe("outpost: no user 'nobody@outpost.local' with an organization in this data directory\n");
    const type = refused('attributes', 'set-resource', 'Spaceship', 'id-1', 'k', 'v', '--data', data);
    expect(type.status).toBe(2);
    expect(type.stderr).toMatch(/unknown resource type 'Spaceship' \(one of: Annotation, Asset/);
    const record = refused('attributes', 'set-resource', 'Annotation', 'no-such-id', 'k', 'v', '--data', data);
    expect(record.stderr).toMatch(/no Annotation 'no-such-id'/);
    expect(JSON.parse(outpost('attributes', 'list', '--data', data)).resources).toEqual([]);
  });
});
