// What `outpost sync` prints about the records made before the first link
// (sync/operations/preLink.ts): on every run while any are left, so they are
// never silently out of sight, and what an adoption did.
import type { PreLinkRecords } from '../../src-shared/api/sync';
import type { AdoptionResult } from './resource';

const counted = (kinds: readonly { label: string; count: number }[]) => kinds.map((k) => `${k.count} ${k.label}`).join(', ');

/** The summary lines about records left from before the link ([] when none are). */
export function describePreLink(pre: PreLinkRecords): string[] {
  if (pre.total === 0) return [];
  const from = pre.localOrganizations.map((o) => o.name).join(', ');
  const lines = [`  made before the link, not synced: ${counted(pre.kinds)} (in ${from}; not shown since the link)`];
  if (pre.adoptable > 0) {
    const to = pre.remoteOrganizations.length === 1 ? ` to ${pre.remoteOrganizations[0].name}` : '';
    const which =
      pre.remoteOrganizations.length > 1
        ? ` ORGANIZATION_ID (one of ${pre.remoteOrganizations.map((o) => `${o.name}: ${o.organizationId}`).join(', ')})`
        : '';
    lines.push(`  send the ${pre.adoptable} that can go${to} with: outpost sync --adopt-local${which}`);
  }
  for (const k of pre.kinds.filter((x) => !x.adoptable)) lines.push(`  ${k.label} stay: ${k.reason}`);
  return lines;
}

/** The lines about one adoption: what was queued, and each record left here with why. */
export function describeAdoption(result: AdoptionResult): string[] {
  const lines = [`  adopted: ${counted(result.adopted) || 'nothing'} (queued as offline creates)`];
  for (const l of result.leftBehind) lines.push(`  left here: ${l.resource} '${l.name}': ${l.reason}`);
  return lines;
}
