// The gRPC front door is driven by the vendored protos and the operation table alone: the committed descriptor set
// is what proto/ builds to, every HTTP rule of the served services maps to exactly the operation with its method
// and path (or to none: that RPC answers UNIMPLEMENTED), and every operation that has a rule is served.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { operations, type OperationName } from '../../src-shared/operations';
import { siftServices } from '../../src-main/grpc/descriptors';
import { httpBindings } from '../../src-main/grpc/httpRules';
import { operationMap } from '../../src-main/grpc/operationMap';

const names = Object.keys(operations) as OperationName[];
const map = operationMap(siftServices);
const rpcName = (m: { parent: { typeName: string }; name: string }) => `${m.parent.typeName}/${m.name}`;

describe('the gRPC mapping', () => {
  it('is built from a descriptor set that matches a fresh build of the vendored protos', () => {
    // Throws (exit 1, naming the file) when proto/ and the committed module disagree.
    execFileSync(process.execPath, ['scripts/build-proto.mjs', '--check'], { stdio: 'pipe' });
  }, 30_000);

  it('maps every HTTP rule to the one operation with its method and path, or to none', () => {
    let rules = 0;
    for (const [method, bindings] of map) {
      for (const rule of httpBindings(method)) {
        rules++;
        const same = names.filter((n) => operations[n].method === rule.method && operations[n].path === rule.path);
        expect(same.length, `${rpcName(method)}: ${rule.method} ${rule.path}`).toBeLessThanOrEqual(1);
        expect(bindings.filter((b) => same.includes(b.operation)).length, rpcName(method)).toBe(same.length);
      }
      expect(bindings.length, `${rpcName(method)} has a binding for each rule at most`).toBeLessThanOrEqual(httpBindings(method).length);
    }
    expect(rules).toBeGreaterThan(100);
  });

  it('serves every operation that has a rule, each from exactly one RPC', () => {
    const servedBy = new Map<OperationName, string[]>();
    for (const [method, bindings] of map)
      for (const b of bindings) servedBy.set(b.operation, [...(servedBy.get(b.operation) ?? []), rpcName(method)]);
    const ruled = new Set([...map.keys()].flatMap((m) => httpBindings(m).map((r) => `${r.method} ${r.path}`)));
    for (const name of names) {
      const hasRule = ruled.has(`${operations[name].method} ${operations[name].path}`);
      expect(servedBy.get(name)?.length ?? 0, name).toBe(hasRule ? 1 : 0);
    }
    // The platform's REST-only routes (the multipart upload) and what no vendored proto declares; every other
    // platform operation (not an Outpost extension) is served over gRPC too.
    expect(names.filter((n) => !operations[n].extension && !servedBy.has(n)).sort()).toEqual(['ListArtifacts', 'UploadRemoteFile']);
  });

  it("names each operation in the OpenAPI document as its RPC: the RPC's name, with the binding's number after the first", () => {
    for (const [method, bindings] of map) {
      const rules = httpBindings(method).map((r) => `${r.method} ${r.path}`);
      for (const b of bindings) {
        const op = operations[b.operation];
        const index = rules.indexOf(`${op.method} ${op.path}`);
        const expected = index === 0 ? method.name : `${method.name}${index + 1}`;
        expect(('operationId' in op && op.operationId) || b.operation, rpcName(method)).toBe(expected);
      }
    }
  });

  it('takes an additional binding when the request leaves the primary path field empty', () => {
    const logs = [...map].find(([m]) => rpcName(m) === 'sift.annotation_logs.v1.AnnotationLogService/ListAnnotationLogs')!;
    expect(logs[1].map((b) => b.operation)).toEqual(['ListAnnotationLogs', 'ListAllAnnotationLogs']);
  });
});
