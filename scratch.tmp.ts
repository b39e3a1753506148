import { compileFilter } from './src-main/filter/compileFilter';
import { annotationListSpec } from './src-main/services/annotations/annotationListSpec';
for (const e of ["start_time == start_time", "has(metadata.env)", "[].exists(x, name.startsWith(x))", "tag_name in []", "name.startsWith(name)", "!([].exists(x, x == description))", "start_time - start_time == duration('0s')"]) {
  try { const c = compileFilter(annotationListSpec.filterFields, e); console.log(e, '=>', c.sql) } catch (err) { console.log(e, '!!', (err as Error).stack) }
}
