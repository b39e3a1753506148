import { performance } from 'node:perf_hooks';
import { openDatabase } from './src-main/db/database';
import { listPage } from './src-main/filter/listQuery';
import { annotationListSpec } from './src-main/services/annotations/annotationListSpec';
import { mkdtempSync } from 'node:fs'; import { tmpdir } from 'node:os'; import { join } from 'node:path';
const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'x-')), 'db.sqlite'));
db.run("INSERT INTO organizations(id, name, created_date) VALUES ('o', 'o', 0)");
const ins = db.raw.prepare("INSERT INTO annotations(id, organization_id, name, start_time, end_time, created_by_user_id, modified_by_user_id, created_date, modified_date) VALUES (?, 'o', ?, ?, ?, 'u', 'u', ?, ?)");
db.tx(() => { for (let i = 0; i < 100000; i++) ins.run('a' + i, 'n' + i, i, i, i, 0); });
db.raw.exec('ANALYZE');
const scope = { sql: 't.organization_id = ?', params: ['o'], fingerprint: ['o'] };
const q1 = "SELECT t.created_date AS k0, t.pk AS k1 FROM annotations t WHERE t.organization_id = ? AND t.name = ? ORDER BY t.created_date DESC, t.pk DESC LIMIT 51";
const bench = (label: string, fn: () => unknown) => { for (let i = 0; i < 2000; i++) fn(); const s = performance.now(); for (let i = 0; i < 20000; i++) fn(); console.log(label, ((performance.now() - s) / 20000 * 1000).toFixed(1), 'us'); };
for (let r = 0; r < 2; r++) {
bench('hand', () => db.all(q1, ['o', 'n5']));
bench('listPage', () => listPage(db, annotationListSpec, { filter: "name == 'n5'", pageSize: 50 }, scope, 's'));
bench('listPage no filter-ish', () => listPage(db, annotationListSpec, { filter: "name == 'n5'", pageSize: 50 }, scope, 's'));
}
