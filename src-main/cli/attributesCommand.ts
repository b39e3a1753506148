// `outpost attributes ...`: principal attributes, roles and resource
// attributes that Cedar policies read (auth/cedar/attributes.ts). The data
// directory is opened like `keys` (one Outpost process at a time); a running
// `outpost serve` must be stopped first, and its next request decides with them.
import type { Command, Option } from 'commander';
import {
  addRole,
  AttributeError,
  findMember,
  listAttributes,
  removePrincipalAttribute,
  removeResourceAttribute,
  removeRole,
  setPrincipalAttribute,
  setResourceAttribute,
} from '../auth/cedar/attributes';
import { defaultDataDir, openEngine } from '../engine';
import type { Db } from '../db/database';

type Run = (work: () => number | Promise<number>) => void;
interface Common {
  data?: string;
  org?: string;
}

function withDb(values: Common, work: (db: Db) => string): number {
  const engine = openEngine(values.data ?? defaultDataDir(), { holder: { command: 'attributes' } });
  try {
    process.stdout.write(`${work(engine.db)}\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof AttributeError)) throw e;
    process.stderr.write(`outpost: ${e.message}\n`);
    return 2;
  } finally {
    engine.close();
  }
}

export function addAttributeCommands(root: Command, data: () => Option, run: Run): void {
  const attributes = root.command('attributes').description('principal attributes, roles and resource attributes that Cedar policies read');
  const org = (c: Command) =>
    c.addOption(data()).option('--org <name>', 'the organization (name or id; needed when the user is in several)');
  org(attributes.command('set-principal').description('set a principal attribute (policies: principal.getTag("KEY"))'))
    .argument('<user>', 'user email or id')
    .argument('<key>')
    .argument('<value>')
    .action((user: string, key: string, value: string, o: Common) =>
      run(() =>
        withDb(o, (db) => {
          const m = findMember(db, user, o.org);
          setPrincipalAttribute(db, m, key, value);
          return `${m.userName} in ${m.organizationName}: ${key} = ${JSON.stringify(value)}`;
        }),
      ),
    );
  org(attributes.command('unset-principal').description('remove a principal attribute'))
    .argument('<user>')
    .argument('<key>')
    .action((user: string, key: string, o: Common) =>
      run(() =>
        withDb(o, (db) => {
          const m = findMember(db, user, o.org);
          return removePrincipalAttribute(db, m, key)
            ? `${m.userName} in ${m.organizationName}: ${key} removed`
            : `${m.userName} in ${m.organizationName} had no ${key}`;
        }),
      ),
    );
  org(
    attributes
      .command('add-role')
      .description('give a user a role (policies: principal in Role::"ROLE", principal.roles.contains("ROLE"))'),
  )
    .argument('<user>')
    .argument('<role>')
    .action((user: string, role: string, o: Common) =>
      run(() =>
        withDb(o, (db) => {
          const m = findMember(db, user, o.org);
          addRole(db, m, role);
          return `${m.userName} in ${m.organizationName}: role ${role}`;
        }),
      ),
    );
  org(attributes.command('remove-role').description('take a role from a user'))
    .argument('<user>')
    .argument('<role>')
    .action((user: string, role: string, o: Common) =>
      run(() =>
        withDb(o, (db) => {
          const m = findMember(db, user, o.org);
          return removeRole(db, m, role)
            ? `${m.userName} in ${m.organizationName}: role ${role} removed`
            : `${m.userName} in ${m.organizationName} had no role ${role}`;
        }),
      ),
    );
  attributes
    .command('set-resource')
    .description('set a resource attribute of a record (policies: resource.getTag("KEY"))')
    .argument('<type>', 'Annotation, Asset, Run, Channel, SavedSearch, Rule, Policy, TestReport, RemoteFile or Artifact')
    .argument('<id>', 'the record id')
    .argument('<key>')
    .argument('<value>')
    .addOption(data())
    .action((type: string, id: string, key: string, value: string, o: Common) =>
      run(() => withDb(o, (db) => `${setResourceAttribute(db, type, id, key, value)}::"${id}": ${key} = ${JSON.stringify(value)}`)),
    );
  attributes
    .command('unset-resource')
    .description('remove a resource attribute')
    .argument('<type>')
    .argument('<id>')
    .argument('<key>')
    .addOption(data())
    .action((type: string, id: string, key: string, o: Common) =>
      run(() =>
        withDb(o, (db) =>
          removeResourceAttribute(db, type, id, key) ? `${type}::"${id}": ${key} removed` : `${type}::"${id}" had no ${key}`,
        ),
      ),
    );
  attributes
    .command('list')
    .description('every principal attribute, role and resource attribute, as JSON')
    .addOption(data())
    .action((o: Common) => run(() => withDb(o, (db) => JSON.stringify(listAttributes(db), null, 2))));
}
