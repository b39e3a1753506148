// Saved searches keep `templateItems[].kind` (the spec's {id, name, kind}):
// items stored before it was kept get the unknown kind, an empty string, so
// every stored document has the wire shape.
import type { Migration } from './types';

interface StoredDocument {
  templateItems?: { id: string; name: string; kind?: string }[];
}

export const migration0011: Migration = {
  version: 11,
  name: 'saved-search-template-kind',
  up(db) {
    const rows = db.prepare('SELECT pk, properties FROM saved_searches').all() as { pk: number; properties: string }[];
    const update = db.prepare('UPDATE saved_searches SET properties = ? WHERE pk = ?');
    for (const row of rows) {
      const doc = JSON.parse(row.properties) as StoredDocument;
      if (!doc.templateItems?.some((i) => i.kind === undefined)) continue;
      doc.templateItems = doc.templateItems.map((i) => ({ id: i.id, name: i.name, kind: i.kind ?? '' }));
      update.run(JSON.stringify(doc), row.pk);
    }
  },
};
