// A method's `google.api.http` rule (with its additional bindings) as (HTTP method, path template) pairs, in the
// spelling of the operation table: `{annotation_id}` for a segment variable (`{x=*}` is the same thing).
import { getOption, toJson, type DescMethod } from '@bufbuild/protobuf';
import type { HttpMethod } from '../../src-shared/api/operation';
import { registry } from './descriptors';

export interface HttpBinding {
  readonly method: HttpMethod;
  readonly path: string;
}

interface HttpRuleJson {
  get?: string;
  put?: string;
  post?: string;
  delete?: string;
  patch?: string;
  additionalBindings?: HttpRuleJson[];
}

const httpExtension = registry.getExtension('google.api.http');
const httpRuleSchema = registry.getMessage('google.api.HttpRule');
if (!httpExtension || !httpRuleSchema) throw new Error('the descriptor set lacks google/api/annotations.proto');

const VERBS = ['get', 'put', 'post', 'delete', 'patch'] as const;

function bindingOf(rule: HttpRuleJson): HttpBinding | undefined {
  for (const verb of VERBS) {
    const path = rule[verb];
    if (path !== undefined) return { method: verb.toUpperCase() as HttpMethod, path: path.replace(/\{([a-z_.]+)=\*\}/g, '{$1}') };
  }
  return undefined; // a `custom` verb: none in the platform's protos
}

/** The method's bindings, its primary rule first; none when it has no rule. */
export function httpBindings(method: DescMethod): HttpBinding[] {
  const rule = getOption(method, httpExtension!) as Parameters<typeof toJson>[1] | undefined;
  if (!rule) return [];
  const json = toJson(httpRuleSchema!, rule) as HttpRuleJson;
  return [json, ...(json.additionalBindings ?? [])].map(bindingOf).filter((b): b is HttpBinding => b !== undefined);
}
